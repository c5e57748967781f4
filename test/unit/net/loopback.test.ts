import { expect, it } from 'vitest'
import { resolveProxyRoute } from '../../../src-main/user-api/proxy-route'
import { isLoopbackHostname, isLoopbackUrl } from '../../../src-shared/net/loopback'
import { baseUrlWarning } from '../../../src-shared/profiles/schemas'

const THIS_COMPUTER = [
  'http://127.0.0.1:8765',
  'http://127.255.0.9',
  'http://localhost:3000',
  'http://LOCALHOST',
  'http://docs.localhost',
  'http://a.b.localhost.:80',
  'http://[::1]:80',
  'http://0.0.0.0:1',
]
const ELSEWHERE = [
  'https://api.example.com',
  'http://10.0.0.5',
  'http://128.0.0.1',
  'https://localhost.example.com',
  'http://mylocalhost',
  'http://[::2]',
  'not a url',
  '',
]

it('one rule tells this computer from the network, for URLs and bare host names alike', () => {
  for (const url of THIS_COMPUTER) {
    expect(isLoopbackUrl(url), url).toBe(true)
    expect(isLoopbackHostname(new URL(url).hostname), url).toBe(true)
  }
  for (const url of ELSEWHERE) expect(isLoopbackUrl(url), url).toBe(false)
  expect(isLoopbackHostname('::1')).toBe(true)
  expect(isLoopbackHostname('127.0.0.1')).toBe(true)
  expect(isLoopbackHostname('db.internal')).toBe(false)
})

it('every decision that reads the rule agrees on 0.0.0.0 and *.localhost', () => {
  for (const url of ['http://0.0.0.0:8080', 'http://api.localhost:8080']) {
    // Plain http to this computer needs no warning on the profile form…
    expect(baseUrlWarning(url), url).toBeUndefined()
    // …and is never sent through the company proxy.
    expect(resolveProxyRoute(new URL(url), { mode: 'environment' }, { HTTP_PROXY: 'http://proxy.example.com:3128' }).proxy, url).toBeNull()
  }
  expect(baseUrlWarning('http://10.0.0.5:8080')).toMatch(/plain http to another computer/)
})

it('an address elsewhere still goes through the proxy the environment names', () => {
  expect(
    resolveProxyRoute(new URL('http://api.example.com'), { mode: 'environment' }, { HTTP_PROXY: 'http://proxy.example.com:3128' }).proxy
      ?.url.host,
  ).toBe('proxy.example.com:3128')
})
