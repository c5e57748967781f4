import { mkdtemp } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterEach, beforeEach, describe, expect, it } from 'vitest'
import { type Sandbox, startSandbox } from '../../../src-main/sandbox/sandbox-server'
import { createUserApiClient, type UserApiClient } from '../../../src-main/user-api/client'
import { checkConnection, CONNECTION_CHECK_GROUP_ID } from '../../../src-main/user-api/connection-check'
import type { AppErrorException } from '../../../src-shared/ipc/result'
import { failureOf } from '../../helpers/failure-of'
import { readSandboxData } from '../../helpers/sandbox-data'

// The contract: every rule of the user-group API (docs/user-group-api.md) and every decision of docs/api-decisions.md,
// checked through the real client against the real sandbox.

let sandbox: Sandbox
let dataFile: string
let customer: UserApiClient
let testing: UserApiClient

beforeEach(async () => {
  dataFile = join(await mkdtemp(join(tmpdir(), 'ec-contract-')), 'sandbox.db')
  sandbox = await startSandbox({ dataFile })
  customer = createUserApiClient({ baseUrl: sandbox.baseUrl, apiToken: sandbox.tokens.Customer })
  testing = createUserApiClient({ baseUrl: sandbox.baseUrl, apiToken: sandbox.tokens.Testing })
})
afterEach(() => sandbox.close())

const statusOf = (error: AppErrorException) => (error.details as { status?: number }).status

describe('get-or-create (GET)', () => {
  it('creates a group when none has the id: new_user_group true, name and provided_id echoed', async () => {
    const { value, raw, status } = await customer.getOrCreate({ user_group_id: 'acme', name: 'Acme Inc', properties: { plan: 'pro' } })
    expect(status).toBe(200)
    expect(value).toEqual({
      success: 1,
      new_user_group: true,
      user_group: {
        team_id: expect.any(Number),
        token: expect.stringMatching(/^[0-9a-f]{64}$/),
        name: 'Acme Inc',
        provided_id: 'acme',
        properties: { plan: 'pro' },
        api_environment_tag: 'Customer',
      },
    })
    expect(raw).toEqual(value)
  })

  it('returns an existing group unchanged, whatever the request says: new_user_group false', async () => {
    const created = (await customer.getOrCreate({ user_group_id: 'acme', name: 'Acme Inc' })).value.user_group
    const again = await customer.getOrCreate({ user_group_id: 'acme', name: 'Other name', properties: { x: 1 } })
    expect(again.value).toEqual({ success: 1, new_user_group: false, user_group: created })
  })

  it('gives the token the caller saves: the same one on every later get', async () => {
    const { token } = (await customer.getOrCreate({ user_group_id: 'acme' })).value.user_group
    expect((await customer.getOrCreate({ user_group_id: 'acme' })).value.user_group.token).toBe(token)
  })

  it('numbers groups with a unique, increasing team_id', async () => {
    const ids = []
    for (const id of ['a', 'b', 'c']) ids.push((await customer.getOrCreate({ user_group_id: id })).value.user_group.team_id)
    ids.push((await testing.getOrCreate({ user_group_id: 'a' })).value.user_group.team_id)
    expect(ids).toEqual([...ids].sort((x, y) => x - y))
    expect(new Set(ids).size).toBe(4)
  })

  it('creates a group without a name with the empty string as its name', async () => {
    expect((await customer.getOrCreate({ user_group_id: 'nameless' })).value.user_group.name).toBe('')
  })
})

describe('update (PUT)', () => {
  it('changes only the fields given and echoes name and provided_id', async () => {
    await customer.getOrCreate({ user_group_id: 'acme', name: 'Acme', mapping: { s1: 'ds1' }, properties: { plan: 'pro' } })
    const renamed = await customer.update({ user_group_id: 'acme', name: 'Acme 2' })
    expect(renamed.value.user_group).toMatchObject({
      name: 'Acme 2',
      provided_id: 'acme',
      properties: { plan: 'pro' },
      api_environment_tag: 'Customer',
    })
    const reprop = await customer.update({ user_group_id: 'acme', properties: { plan: 'basic' } })
    expect(reprop.value.user_group).toMatchObject({ name: 'Acme 2', properties: { plan: 'basic' } })
  })

  it('keeps the token and team_id of the group', async () => {
    const created = (await customer.getOrCreate({ user_group_id: 'acme' })).value.user_group
    const updated = (await customer.update({ user_group_id: 'acme', name: 'New' })).value.user_group
    expect(updated).toMatchObject({ token: created.token, team_id: created.team_id })
  })

  it('answers 404 for an unknown group, as api_failure with a sentence that says so', async () => {
    const error = await failureOf(customer.update({ user_group_id: 'ghost', name: 'x' }))
    expect(error.code).toBe('api_failure')
    expect(statusOf(error)).toBe(404)
    expect(error.message).toBe(
      'No user group with this user_group_id exists in this API token’s environment (HTTP 404). The server said: “No user group with user_group_id "ghost" exists in the Customer environment.”',
    )
  })
})

describe('token rotation (POST)', () => {
  it('issues a new token; the old one stops working and the new one works', async () => {
    const created = (await customer.getOrCreate({ user_group_id: 'acme', name: 'Acme' })).value.user_group
    const rotated = (await customer.rotateToken({ current_token: created.token })).value.user_group
    expect(rotated).toMatchObject({ team_id: created.team_id, name: 'Acme', provided_id: 'acme', api_environment_tag: 'Customer' })
    expect(rotated.token).toMatch(/^[0-9a-f]{64}$/)
    expect(rotated.token).not.toBe(created.token)

    const withOld = await failureOf(customer.rotateToken({ current_token: created.token }))
    expect(withOld.code).toBe('api_failure')
    expect(statusOf(withOld)).toBe(404)
    expect((await customer.rotateToken({ current_token: rotated.token })).value.user_group.token).not.toBe(rotated.token)
  })

  it('get-or-create returns the new token after a rotation', async () => {
    const created = (await customer.getOrCreate({ user_group_id: 'acme' })).value.user_group
    const rotated = (await customer.rotateToken({ current_token: created.token })).value.user_group
    expect((await customer.getOrCreate({ user_group_id: 'acme' })).value.user_group.token).toBe(rotated.token)
  })

  it('answers 404 for an unknown token without repeating it', async () => {
    const unknown = 'f'.repeat(64)
    const error = await failureOf(customer.rotateToken({ current_token: unknown }))
    expect(error.code).toBe('api_failure')
    expect(error.message).toBe(
      'No user group has this current token in this API token’s environment (HTTP 404). The server said: “No user group in the Customer environment has this token.”',
    )
    expect(JSON.stringify(error.details)).not.toContain(unknown)
  })

  it('refuses an empty current_token before sending (the sandbox would answer 400)', async () => {
    const error = await failureOf(customer.rotateToken({ current_token: '' }))
    expect(error.code).toBe('invalid_input')
  })
})

describe('environments', () => {
  it('lets the same user_group_id exist once in each environment, tagged Customer and Testing', async () => {
    const inCustomer = (await customer.getOrCreate({ user_group_id: 'acme', name: 'Prod' })).value
    const inTesting = (await testing.getOrCreate({ user_group_id: 'acme', name: 'Test' })).value
    expect(inCustomer.new_user_group).toBe(true)
    expect(inTesting.new_user_group).toBe(true)
    expect(inCustomer.user_group.api_environment_tag).toBe('Customer')
    expect(inTesting.user_group.api_environment_tag).toBe('Testing')
    expect(inTesting.user_group.team_id).not.toBe(inCustomer.user_group.team_id)
    expect(inTesting.user_group.token).not.toBe(inCustomer.user_group.token)
  })

  it('updates only the group of the caller’s environment', async () => {
    await customer.getOrCreate({ user_group_id: 'acme', name: 'Prod' })
    await testing.getOrCreate({ user_group_id: 'acme', name: 'Test' })
    await testing.update({ user_group_id: 'acme', name: 'Test 2' })
    expect((await customer.getOrCreate({ user_group_id: 'acme' })).value.user_group.name).toBe('Prod')
  })

  it('looks a group token up only within the caller’s environment', async () => {
    const testGroup = (await testing.getOrCreate({ user_group_id: 'acme' })).value.user_group
    const error = await failureOf(customer.rotateToken({ current_token: testGroup.token }))
    expect(statusOf(error)).toBe(404)
    expect(error.code).toBe('api_failure')
  })

  it('does not find a Testing group by id with the Customer token', async () => {
    await testing.getOrCreate({ user_group_id: 'only-in-testing' })
    expect(statusOf(await failureOf(customer.update({ user_group_id: 'only-in-testing', name: 'x' })))).toBe(404)
  })
})

describe('errors and limits', () => {
  it('says the API token was refused on a wrong token (401), as api_failure with the status', async () => {
    const stranger = createUserApiClient({ baseUrl: sandbox.baseUrl, apiToken: 'not-a-sandbox-token' })
    const error = await failureOf(stranger.getOrCreate({ user_group_id: 'acme' }))
    expect(error.code).toBe('api_failure')
    expect(statusOf(error)).toBe(401)
    expect(error.message).toBe(
      "The API token was refused (HTTP 401): check the profile's API token. The server said: “The API token is not recognised.”",
    )
  })

  it('answers a body over 1 MB with 413, which the client reads as such', async () => {
    const error = await failureOf(customer.getOrCreate({ user_group_id: 'big', properties: { blob: 'x'.repeat(1024 * 1024) } }))
    expect(error.code).toBe('api_failure')
    expect(statusOf(error)).toBe(413)
    expect(error.message).toBe(
      'The request is too large for the server (HTTP 413): make the mapping or properties smaller. The server said: “The request body is larger than 1 MB.”',
    )
  })

  it('answers a base URL with a wrong path prefix with a plain 404: check the base URL', async () => {
    const misplaced = createUserApiClient({ baseUrl: `${sandbox.baseUrl}/v2`, apiToken: sandbox.tokens.Customer })
    const error = await failureOf(misplaced.update({ user_group_id: 'acme', name: 'x' }))
    expect(error.code).toBe('http_status')
    expect(error.message).toBe(`Nothing answers at ${sandbox.baseUrl}/v2/api/user (HTTP 404): check the base URL.`)
  })
})

describe('Test connection (a PUT of the reserved id alone)', () => {
  it('succeeds with the API’s own 404, and creates nothing', async () => {
    expect(await checkConnection(customer)).toMatchObject({ status: 404, durationMs: expect.any(Number) })
    expect(readSandboxData(dataFile).groups).toEqual([])
  })

  it('succeeds, changing nothing, even if a group with the reserved id existed', async () => {
    const existing = (await customer.getOrCreate({ user_group_id: CONNECTION_CHECK_GROUP_ID, name: 'kept' })).value.user_group
    expect(await checkConnection(customer)).toMatchObject({ status: 200 })
    expect((await customer.getOrCreate({ user_group_id: CONNECTION_CHECK_GROUP_ID })).value.user_group).toEqual(existing)
  })

  it('fails with "the API token was refused" on a wrong token', async () => {
    const error = await failureOf(checkConnection(createUserApiClient({ baseUrl: sandbox.baseUrl, apiToken: 'wrong' })))
    expect(error.message).toMatch(/^The API token was refused \(HTTP 401\)/)
  })

  it('fails with "check the base URL" when the base URL misses the API', async () => {
    const error = await failureOf(
      checkConnection(createUserApiClient({ baseUrl: `${sandbox.baseUrl}/nope`, apiToken: sandbox.tokens.Customer })),
    )
    expect(error.code).toBe('http_status')
    expect(error.message).toMatch(/check the base URL\.$/)
  })
})

describe('persistence', () => {
  it('keeps groups, their tokens and the API tokens across a restart', async () => {
    const created = (await customer.getOrCreate({ user_group_id: 'acme', name: 'Acme' })).value.user_group
    const rotated = (await customer.rotateToken({ current_token: created.token })).value.user_group
    const tokens = sandbox.tokens
    await sandbox.close()

    sandbox = await startSandbox({ dataFile })
    expect(sandbox.tokens).toEqual(tokens)
    const client = createUserApiClient({ baseUrl: sandbox.baseUrl, apiToken: sandbox.tokens.Customer })
    const again = await client.getOrCreate({ user_group_id: 'acme' })
    expect(again.value).toMatchObject({ new_user_group: false, user_group: rotated })
    expect((await client.getOrCreate({ user_group_id: 'next' })).value.user_group.team_id).toBeGreaterThan(created.team_id)
  })
})
