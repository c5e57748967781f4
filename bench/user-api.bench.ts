import { mkdtemp } from 'node:fs/promises'
import { request } from 'node:http'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterAll, bench, describe } from 'vitest'
import { startSandbox } from '../src-main/sandbox/sandbox-server'
import { createUserApiClient } from '../src-main/user-api/client'

// What the app's client adds to a get-or-create, against the same sandbox as a bare node:http
// request with the same body and headers. Both go through Node's global agent, so keep-alive is
// the same for both. The group exists beforehand: the sandbox answers without writing its file.
// Target: the client adds under 0.5 ms per call. Compare the two medians.

const sandbox = await startSandbox({ dataFile: join(await mkdtemp(join(tmpdir(), 'ec-bench-')), 'sandbox.json') })
const client = createUserApiClient({ baseUrl: sandbox.baseUrl, apiToken: sandbox.tokens.Customer })
const requestBody = { user_group_id: 'bench-group', name: 'Bench', properties: { plan: 'pro', seats: 12 } }
await client.getOrCreate(requestBody)
afterAll(() => sandbox.close())

const bareBody = JSON.stringify(requestBody)
const bareHeaders = {
  'Content-Type': 'application/json',
  Accept: 'application/json',
  Authorization: `Token ${sandbox.tokens.Customer}`,
  'Content-Length': String(Buffer.byteLength(bareBody)),
}

function bareGetOrCreate(): Promise<string> {
  return new Promise((resolve, reject) => {
    const req = request(`${sandbox.baseUrl}/api/user`, { method: 'GET', headers: bareHeaders }, (res) => {
      const chunks: Buffer[] = []
      res.on('data', (chunk: Buffer) => chunks.push(chunk))
      // Measure answers, not refusals: a bare request that got a 401 would look fast.
      res.on('end', () =>
        res.statusCode === 200 ? resolve(Buffer.concat(chunks).toString('utf8')) : reject(new Error(`HTTP ${res.statusCode}`)),
      )
      res.on('error', reject)
    })
    req.on('error', reject)
    req.end(bareBody)
  })
}

const options = { time: 3000, warmupTime: 500 }

describe('get-or-create against the sandbox', () => {
  bench('bare node:http request', () => bareGetOrCreate().then(() => undefined), options)
  bench(
    'Embed Console client (validate, send, parse, check the response)',
    () => client.getOrCreate(requestBody).then(() => undefined),
    options,
  )
})
