import { mkdtemp, writeFile } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { createAppServices } from '../../../src-main/app-services'
import { main } from '../../../src-main/cli/index'
import type { CliIo } from '../../../src-main/cli/usage'
import { type Sandbox, startSandbox } from '../../../src-main/sandbox/sandbox-server'
import { startFlakyProxy } from '../../helpers/flaky-proxy'

function io(env: NodeJS.ProcessEnv = {}, stdin = ''): CliIo & { out: string[]; err: string[] } {
  const out: string[] = []
  const err: string[] = []
  return { out, err, env, stdout: (text) => out.push(text), stderr: (text) => err.push(text), stdin: async () => stdin }
}

describe('embed-console groups', () => {
  let sandbox: Sandbox
  let dir: string

  beforeAll(async () => {
    dir = await mkdtemp(join(tmpdir(), 'ec-cli-groups-'))
    sandbox = await startSandbox({ port: 0, dataFile: join(dir, 'sandbox.db') })
  })
  afterAll(() => sandbox.close())

  const withToken = (stdin = '') => io({ EMBED_CONSOLE_TOKEN: sandbox.tokens.Customer }, stdin)

  it('gets or creates through --base-url with the token from the environment, and prints the response', async () => {
    const run = withToken()
    const code = await main(
      [
        'groups',
        'get-or-create',
        '--base-url',
        sandbox.baseUrl,
        '--user-group-id',
        'cli-1',
        '--name',
        'From the CLI',
        '--properties',
        '{"plan":"pro"}',
      ],
      run,
    )
    expect(code).toBe(0)
    const response = JSON.parse(run.out.join('\n'))
    expect(response).toMatchObject({
      success: 1,
      new_user_group: true,
      user_group: { provided_id: 'cli-1', name: 'From the CLI', properties: { plan: 'pro' } },
    })
    expect(run.out.join('\n')).not.toContain(sandbox.tokens.Customer)
  })

  it('reads --mapping from a file with @', async () => {
    const file = join(dir, 'mapping.json')
    await writeFile(file, '{"schema-1":"warehouse"}')
    const run = withToken()
    expect(await main(['groups', 'update', '--base-url', sandbox.baseUrl, '--user-group-id', 'cli-1', '--mapping', `@${file}`], run)).toBe(
      0,
    )
  })

  it('rotates with the current token read from standard input; the old one then fails with exit 1', async () => {
    const first = withToken()
    await main(['groups', 'get-or-create', '--base-url', sandbox.baseUrl, '--user-group-id', 'cli-rot'], first)
    const oldToken = JSON.parse(first.out.join('\n')).user_group.token as string

    const rotate = withToken(`${oldToken}\n`)
    expect(await main(['groups', 'rotate-token', '--base-url', sandbox.baseUrl, '--current-token', '-'], rotate)).toBe(0)
    const newToken = JSON.parse(rotate.out.join('\n')).user_group.token as string
    expect(newToken).not.toBe(oldToken)

    const again = withToken(oldToken)
    expect(await main(['groups', 'rotate-token', '--base-url', sandbox.baseUrl, '--current-token', '-'], again)).toBe(1)
    expect(again.err.join('\n')).toMatch(/404/)
    expect(again.err.join('\n')).not.toContain(oldToken)
  })

  it('rotates the token a profile keeps by --user-group-id; a lost answer says how to settle it, and get-or-create does', async () => {
    const dataDir = await mkdtemp(join(tmpdir(), 'ec-cli-rotate-kept-'))
    // The gateway forwards the rotation, the server acts, and the answer is lost.
    const proxy = await startFlakyProxy(sandbox.baseUrl, () => null, { loseAnswer: (_index, req) => req.method === 'POST' })
    try {
      const services = await createAppServices({ dataDir, transport: 'browser', sandbox: false })
      await services.profiles.create({
        name: 'Kept',
        baseUrl: proxy.baseUrl,
        timeoutSeconds: 5,
        environmentLabel: '',
        apiToken: sandbox.tokens.Customer,
        tokenStorage: 'file',
      })
      await services.close()
      const args = ['--profile', 'Kept', '--data-dir', dataDir, '--user-group-id', 'cli-kept']
      expect(await main(['groups', 'get-or-create', ...args], io())).toBe(0)
      const lost = io()
      expect(await main(['groups', 'rotate-token', ...args], lost)).toBe(1)
      expect(lost.err[0]).toMatch(/outcome/i)
      expect(lost.err[1]).toBe(
        'Fetch the group to learn whether it happened (nothing is rotated again): embed-console groups get-or-create --profile "Kept" --user-group-id "cli-kept"',
      )
      // Rotating again is refused before anything is sent.
      const again = io()
      expect(await main(['groups', 'rotate-token', ...args], again)).toBe(1)
      expect(again.err[0]).toMatch(/^An earlier rotation of “cli-kept” \(at \d\d:\d\d\) has an unknown outcome/)
      expect(proxy.rotated.get('cli-kept')).toBe(1)
      const settle = io()
      expect(await main(['groups', 'get-or-create', ...args], settle)).toBe(0)
      expect(settle.err).toEqual([
        expect.stringMatching(
          /^Warning: An earlier rotation of this group whose answer was lost did happen: the server's new token is kept now/,
        ),
      ])
    } finally {
      await proxy.close()
    }
  })

  it('answers a refused API token with exit 1, and as JSON on stdout with --json', async () => {
    const run = io({ EMBED_CONSOLE_TOKEN: 'not-the-token-0000' })
    expect(await main(['groups', 'update', '--base-url', sandbox.baseUrl, '--user-group-id', 'cli-1', '--json'], run)).toBe(1)
    const printed = JSON.parse(run.out.join('\n'))
    expect(printed).toMatchObject({ ok: false, error: { code: expect.any(String), details: { status: 401 } } })
    expect(run.out.join('\n')).not.toContain('not-the-token-0000')
  })

  it('refuses bad usage with exit 2 before any request', async () => {
    const cases: [string[], NodeJS.ProcessEnv, RegExp][] = [
      [['groups'], {}, /Name an operation/],
      [['groups', 'update', '--base-url', sandbox.baseUrl], { EMBED_CONSOLE_TOKEN: 'x' }, /needs --user-group-id/],
      [['groups', 'get-or-create', '--base-url', sandbox.baseUrl, '--user-group-id', 'a'], {}, /EMBED_CONSOLE_TOKEN/],
      [['groups', 'get-or-create', '--user-group-id', 'a'], {}, /either --profile or --base-url/],
      [
        ['groups', 'get-or-create', '--base-url', sandbox.baseUrl, '--user-group-id', 'a', '--mapping', '{"a":1}'],
        { EMBED_CONSOLE_TOKEN: 'x' },
        /--mapping/,
      ],
      [
        ['groups', 'get-or-create', '--base-url', sandbox.baseUrl, '--user-group-id', 'a', '--mapping', '@/proc/self/environ'],
        { EMBED_CONSOLE_TOKEN: 'x' },
        /^--mapping: \/proc\/self\/environ is under \/proc, whose files describe the running system/,
      ],
      [['groups', 'rotate-token', '--base-url', sandbox.baseUrl, '--current-token', 'abc'], { EMBED_CONSOLE_TOKEN: 'x' }, /standard input/],
      [
        ['groups', 'get-or-create', '--base-url', sandbox.baseUrl, '--user-group-id', 'a', '--timeout', 'soon'],
        { EMBED_CONSOLE_TOKEN: 'x' },
        /--timeout/,
      ],
    ]
    for (const [argv, env, message] of cases) {
      const run = io(env)
      expect(await main(argv, run), argv.join(' ')).toBe(2)
      expect(run.err.join('\n')).toMatch(message)
    }
  })

  it('answers success and failure alike in one JSON envelope with --json, usage mistakes included', async () => {
    const created = withToken()
    expect(
      await main(
        ['groups', 'get-or-create', '--base-url', sandbox.baseUrl, '--user-group-id', 'cli-json', '--name', 'One', '--json'],
        created,
      ),
    ).toBe(0)
    expect(JSON.parse(created.out.join('\n'))).toMatchObject({
      ok: true,
      value: {
        httpStatus: 200,
        durationMs: expect.any(Number),
        warnings: [],
        response: { success: 1, new_user_group: true, user_group: { provided_id: 'cli-json' } },
      },
    })
    expect(created.err).toEqual([])

    const usage = withToken()
    expect(await main(['groups', 'get-or-create', '--base-url', sandbox.baseUrl, '--json'], usage)).toBe(2)
    expect(JSON.parse(usage.out.join('\n'))).toEqual({
      ok: false,
      error: {
        code: 'invalid_input',
        message: 'get-or-create needs --user-group-id.',
        details: { usage: expect.stringContaining('embed-console groups') },
      },
    })
    expect(usage.err).toEqual([])

    for (const argv of [
      ['groups', 'frobnicate', '--json'],
      ['groups', 'update', '--colour', '--json'],
      ['nope', '--json'],
    ]) {
      const run = withToken()
      expect(await main(argv, run), argv.join(' ')).toBe(2)
      expect(JSON.parse(run.out.join('\n')), argv.join(' ')).toMatchObject({
        ok: false,
        error: { code: 'invalid_input', message: expect.any(String) },
      })
      expect(run.err).toEqual([])
    }

    const refusedId = withToken()
    expect(
      await main(['groups', 'get-or-create', '--base-url', sandbox.baseUrl, '--user-group-id', 'cli-json ', '--json'], refusedId),
    ).toBe(2)
    expect(JSON.parse(refusedId.out.join('\n'))).toMatchObject({
      ok: false,
      error: { code: 'invalid_input', message: expect.stringContaining('ends with a space') },
    })
  })

  it('says on stderr which given fields get-or-create did not apply to an existing group', async () => {
    const run = withToken()
    expect(
      await main(['groups', 'get-or-create', '--base-url', sandbox.baseUrl, '--user-group-id', 'cli-json', '--name', 'Two'], run),
    ).toBe(0)
    expect(JSON.parse(run.out.join('\n'))).toMatchObject({ new_user_group: false, user_group: { name: 'One' } })
    expect(run.err).toEqual([
      'Warning: “cli-json” already existed, so get-or-create returned it unchanged: the name you gave was not applied. Use Update to change it.',
    ])
    const json = withToken()
    await main(['groups', 'get-or-create', '--base-url', sandbox.baseUrl, '--user-group-id', 'cli-json', '--name', 'Two', '--json'], json)
    expect(JSON.parse(json.out.join('\n'))).toMatchObject({
      ok: true,
      value: { notApplied: ['name'], warnings: [expect.stringContaining('not applied')] },
    })
  })

  it('refuses a --base-url the profile form would refuse, before any request', async () => {
    const run = withToken()
    expect(await main(['groups', 'get-or-create', '--base-url', 'https://user:secret@example.com', '--user-group-id', 'a'], run)).toBe(2)
    expect(run.err.join('\n')).toContain('--base-url: Leave the user name and password out of the base URL')
    expect(run.err.join('\n')).not.toContain('secret')
  })

  it('calls through a saved profile and records the call in its activity log', async () => {
    const dataDir = await mkdtemp(join(tmpdir(), 'ec-cli-profile-'))
    const setup = await createAppServices({ dataDir, transport: 'browser', sandbox: false })
    await setup.router.dispatch(
      'profiles.create',
      { name: 'Scripted', baseUrl: sandbox.baseUrl, apiToken: sandbox.tokens.Testing, tokenStorage: 'file' },
      { transport: 'test' },
    )
    await setup.close()

    const run = io()
    expect(
      await main(['groups', 'get-or-create', '--profile', 'Scripted', '--data-dir', dataDir, '--user-group-id', 'via-profile'], run),
    ).toBe(0)
    expect(JSON.parse(run.out.join('\n')).user_group.api_environment_tag).toBe('Testing')

    const after = await createAppServices({ dataDir, transport: 'browser', sandbox: false })
    const activity = await after.router.dispatch('activity.list', {}, { transport: 'test' })
    expect(activity).toMatchObject({
      ok: true,
      value: { entries: [{ operation: 'getOrCreate', groupId: 'via-profile', outcome: 'success' }] },
    })
    await after.close()

    const missing = io()
    expect(await main(['groups', 'get-or-create', '--profile', 'Nope', '--data-dir', dataDir, '--user-group-id', 'x'], missing)).toBe(2)
  })

  it('calls out a profile marked Testing whose token writes Customer groups, on stderr and in --json', async () => {
    const dataDir = await mkdtemp(join(tmpdir(), 'ec-cli-mislabelled-'))
    const setup = await createAppServices({ dataDir, transport: 'browser', sandbox: false })
    await setup.router.dispatch(
      'profiles.create',
      { name: 'Bravo', baseUrl: sandbox.baseUrl, apiToken: sandbox.tokens.Customer, tokenStorage: 'file', environmentKind: 'testing' },
      { transport: 'test' },
    )
    await setup.close()

    const run = io()
    expect(await main(['groups', 'get-or-create', '--profile', 'Bravo', '--data-dir', dataDir, '--user-group-id', 'cli-bravo'], run)).toBe(
      0,
    )
    expect(run.err).toEqual([expect.stringMatching(/^Warning: “Bravo” is marked Testing, but the server put the group in Customer\./)])
    const json = io()
    expect(
      await main(
        ['groups', 'update', '--profile', 'Bravo', '--data-dir', dataDir, '--user-group-id', 'cli-bravo', '--name', 'B', '--json'],
        json,
      ),
    ).toBe(0)
    expect(JSON.parse(json.out.join('\n'))).toMatchObject({
      ok: true,
      value: {
        environmentMismatch: { profileKind: 'testing', serverTag: 'Customer' },
        warnings: [expect.stringContaining('is marked Testing, but the server put the group in Customer')],
      },
    })
  })
})
