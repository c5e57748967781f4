import { execFile, execFileSync } from 'node:child_process'
import { mkdtemp, writeFile } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { promisify } from 'node:util'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { type Sandbox, startSandbox } from '../../../src-main/sandbox/sandbox-server'
import { createUserApiClient, type UserApiClient } from '../../../src-main/user-api/client'
import { buildCodeSample, type SampleCall, type SampleLanguage } from '../../../src-shared/user-api/code-samples'

const run = promisify(execFile)

// Values a careless sample would break: quotes of both kinds, a backslash, a dollar sign the
// shell must not expand, accents beyond ASCII, JSON's literals and nesting.
const AWKWARD = {
  plan: 'it\'s "pro"',
  path: 'C:\\data',
  price: '$5',
  city: 'São Paulo',
  active: true,
  parent: null,
  tags: ['a', { b: 2 }],
  empty: {},
}

const available = (command: string, args: string[]) => {
  try {
    execFileSync(command, args, { stdio: 'ignore' })
    return true
  } catch {
    return false
  }
}
// curl, Python's requests and Node are on every machine this project runs on; HTTPie may not be.
const haveHttpie = available('http', ['--version'])

describe('code samples run as printed against the sandbox', () => {
  let sandbox: Sandbox
  let client: UserApiClient
  let dir: string
  let seq = 0

  beforeAll(async () => {
    dir = await mkdtemp(join(tmpdir(), 'ec-samples-'))
    sandbox = await startSandbox({ port: 0, dataFile: join(dir, 'sandbox.db') })
    client = createUserApiClient({ baseUrl: sandbox.baseUrl, apiToken: sandbox.tokens.Customer })
  })
  afterAll(() => sandbox.close())

  /** Writes the sample to a file and runs it with only the variables it names set. */
  async function runSample(language: SampleLanguage, call: SampleCall, currentToken?: string): Promise<string> {
    const sample = buildCodeSample(language, sandbox.baseUrl, call)
    const env: NodeJS.ProcessEnv = { PATH: process.env.PATH, HOME: dir, EMBED_CONSOLE_TOKEN: sandbox.tokens.Customer }
    if (sample.variables.includes('CURRENT_GROUP_TOKEN')) env.CURRENT_GROUP_TOKEN = currentToken
    expect(sample.variables.every((name) => env[name])).toBe(true)
    const file = join(dir, `sample-${seq++}.${{ curl: 'sh', httpie: 'sh', javascript: 'mjs', python: 'py' }[language]}`)
    await writeFile(file, sample.code)
    const [command, args] =
      language === 'javascript' ? [process.execPath, [file]] : language === 'python' ? ['python3', [file]] : ['bash', ['-e', file]]
    const { stdout } = await run(command, args, { env, timeout: 15_000 })
    return stdout
  }

  /** The JSON answer in what a sample printed (a status first, for JavaScript and Python). */
  const answerIn = (printed: string) => JSON.parse(printed.slice(printed.indexOf('{')))

  const languages: SampleLanguage[] = ['curl', 'python', 'javascript', ...(haveHttpie ? (['httpie'] as const) : [])]

  it.each(languages)('%s: get-or-create with a body (GET), then the same id found again', async (language) => {
    const id = `sample-${language}`
    const created = answerIn(
      await runSample(language, {
        operation: 'getOrCreate',
        request: { user_group_id: id, name: 'Sample', mapping: { s1: 'warehouse' }, properties: AWKWARD },
      }),
    )
    expect(created).toMatchObject({
      success: 1,
      new_user_group: true,
      user_group: { provided_id: id, name: 'Sample', properties: AWKWARD },
    })
    const found = await client.getOrCreate({ user_group_id: id })
    expect(found.value).toMatchObject({ new_user_group: false, user_group: { properties: AWKWARD } })
  })

  it.each(languages)('%s: update (PUT)', async (language) => {
    const id = `sample-${language}`
    const updated = answerIn(
      await runSample(language, {
        operation: 'update',
        request: { user_group_id: id, name: 'O\'Brien & "Sons"', properties: { seats: 40 } },
      }),
    )
    expect(updated).toMatchObject({ success: 1, user_group: { provided_id: id, name: 'O\'Brien & "Sons"', properties: { seats: 40 } } })
  })

  it.each(languages)('%s: token rotation (POST) with the current token from $CURRENT_GROUP_TOKEN', async (language) => {
    const old = (await client.getOrCreate({ user_group_id: `rotate-${language}` })).value.user_group.token
    const rotated = answerIn(await runSample(language, { operation: 'rotateToken' }, old))
    expect(rotated).toMatchObject({ success: 1, user_group: { provided_id: `rotate-${language}` } })
    expect(rotated.user_group.token).not.toBe(old)
    await expect(client.rotateToken({ current_token: old })).rejects.toMatchObject({ code: 'api_failure' })
  })

  it('names every variable a sample reads, and says why the JavaScript GET is not fetch', () => {
    const rotation = buildCodeSample('curl', 'https://api.example.com', { operation: 'rotateToken' })
    expect(rotation.variables).toEqual(['EMBED_CONSOLE_TOKEN', 'CURRENT_GROUP_TOKEN'])
    // The variable is expanded by the shell: never inside single quotes.
    expect(rotation.code).toContain('--data "{\\"current_token\\": \\"$CURRENT_GROUP_TOKEN\\"}"')
    const get = buildCodeSample('javascript', 'https://api.example.com/', { operation: 'getOrCreate', request: { user_group_id: 'a' } })
    expect(get.code).toContain("import { request } from 'node:https'")
    expect(get.code).not.toContain('await fetch(')
    expect(get.note).toMatch(/fetch\(\) cannot send a body with GET/)
    expect(
      buildCodeSample('javascript', 'https://api.example.com', { operation: 'update', request: { user_group_id: 'a' } }).code,
    ).toContain("method: 'PUT'")
    for (const language of ['curl', 'httpie', 'javascript', 'python'] as const) {
      const sample = buildCodeSample(language, 'https://api.example.com/tenant/', {
        operation: 'getOrCreate',
        request: { user_group_id: 'a' },
      })
      expect(sample.code, language).toContain('https://api.example.com/tenant/api/user')
      expect(sample.code, language).toContain('EMBED_CONSOLE_TOKEN')
    }
  })
})
