import { createServer, type Server } from 'node:http'
import type { AddressInfo } from 'node:net'
import { afterAll, beforeAll, expect, it } from 'vitest'
import { parseBulkInput } from '../../../src-main/bulk/bulk-input'
import { createUserApiClient } from '../../../src-main/user-api/client'
import type { AppErrorException } from '../../../src-shared/ipc/result'
import { checkOutgoing } from '../../../src-shared/user-api/outgoing'

// One check decides what may leave the app; the client at send and a bulk plan row by row read the
// same answer, so a row the plan accepts is never refused at send, and the other way round.

let server: Server
let requests = 0
beforeAll(async () => {
  server = createServer((_req, res) => {
    requests += 1
    res.writeHead(500).end()
  })
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve))
})
afterAll(() => new Promise<void>((resolve) => server.close(() => resolve())))

const IDS = ['acme', ' acme', 'acme ', 'ac\u200bme', '\u202eacme', 'ac\u0000me', 'a\u00a0b', '   ', '', 'ünïcødé-☃', 'x'.repeat(300)]

it('the client and the bulk plan refuse exactly the ids the one check refuses, with its sentence', async () => {
  const client = createUserApiClient({
    baseUrl: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    apiToken: 'tok_outgoing_1234',
    timeoutMs: 2000,
  })
  for (const id of IDS) {
    const checked = checkOutgoing('getOrCreate', { user_group_id: id })
    const plan = parseBulkInput(JSON.stringify([{ user_group_id: id }]), 'rows.json', 'apply')
    expect(plan.rows.length === 1, JSON.stringify(id)).toBe(checked.ok)
    const before = requests
    const refusal = await client.getOrCreate({ user_group_id: id }).then(
      () => null,
      (error: AppErrorException) => error,
    )
    if (checked.ok) {
      expect(requests, JSON.stringify(id)).toBe(before + 1)
      continue
    }
    expect(requests, `${JSON.stringify(id)} must not be sent`).toBe(before)
    expect(refusal?.code).toBe('invalid_input')
    const sentence = checked.issues[0]!.message
    expect(refusal?.message).toContain(sentence)
    expect(plan.problems.map((problem) => problem.message).join(' ')).toContain(sentence)
  }
})

it('a rotation request is checked by its own schema, with no id rule', () => {
  expect(checkOutgoing('rotateToken', { current_token: 'abc' })).toEqual({ ok: true, value: { current_token: 'abc' } })
  expect(checkOutgoing('rotateToken', { current_token: '' })).toMatchObject({
    ok: false,
    issues: [{ kind: 'schema', path: ['current_token'] }],
  })
  expect(checkOutgoing('update', { user_group_id: 'a', nmae: 'typo' })).toMatchObject({
    ok: false,
    issues: [{ kind: 'schema', unknownKeys: ['nmae'] }],
  })
})
