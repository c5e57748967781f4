import { mkdtemp, writeFile } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterEach, describe, expect, it } from 'vitest'
import { sandboxCommand } from '../../../src-main/cli/sandbox-command'
import { type CliIo, UsageError } from '../../../src-main/cli/usage'
import { createUserApiClient } from '../../../src-main/user-api/client'
import { readSandboxData } from '../../helpers/sandbox-data'

function captureIo(env: NodeJS.ProcessEnv = {}) {
  const out: string[] = []
  const err: string[] = []
  const io: CliIo = { stdout: (text) => out.push(text), stderr: (text) => err.push(text), stdin: async () => '', env }
  return { io, out, err }
}

/** Waits until the command has printed its three lines. */
async function printed(out: string[]): Promise<string[]> {
  for (let tries = 0; out.length < 3 && tries < 200; tries++) await new Promise((resolve) => setTimeout(resolve, 10))
  return out
}

const stopWith = (signal: 'SIGINT' | 'SIGTERM') => process.emit(signal, signal)

describe('embed-console sandbox', () => {
  let running: Promise<number> | undefined
  afterEach(async () => {
    if (running) {
      stopWith('SIGTERM')
      await running
    }
    running = undefined
  })

  it('prints its base URL and one API token per environment, and serves them', async () => {
    const dataDir = await mkdtemp(join(tmpdir(), 'ec-sandbox-cli-'))
    const { io, out } = captureIo({ EMBED_CONSOLE_DATA_DIR: dataDir })
    running = sandboxCommand.run([], io)
    const [urlLine, customerLine, testingLine] = await printed(out)
    const baseUrl = /^Sandbox for \/api\/user running at (http:\/\/127\.0\.0\.1:\d+)$/.exec(urlLine ?? '')?.[1]
    const customerToken = /^Customer API token: ([0-9a-f]{64})$/.exec(customerLine ?? '')?.[1]
    expect(baseUrl).toBeDefined()
    expect(customerToken).toBeDefined()
    expect(testingLine).toMatch(/^Testing API token: {2}[0-9a-f]{64}$/)

    const client = createUserApiClient({ baseUrl: baseUrl as string, apiToken: customerToken as string })
    expect((await client.getOrCreate({ user_group_id: 'acme' })).value.user_group.api_environment_tag).toBe('Customer')
    // With no --data, the database sits in the app's data folder.
    expect(readSandboxData(join(dataDir, 'sandbox.db')).groups.map((group) => group.provided_id)).toEqual(['acme'])
  })

  it('takes --port, --data and both tokens, and stops with exit code 0 on SIGINT', async () => {
    const dataFile = join(await mkdtemp(join(tmpdir(), 'ec-sandbox-cli-')), 'custom.db')
    const { io, out } = captureIo()
    const run = sandboxCommand.run(
      ['--data', dataFile, '--customer-token', 'cust-token', '--testing-token', 'test-token', '--port', '0'],
      io,
    )
    expect(await printed(out)).toEqual([
      expect.stringMatching(/^Sandbox for \/api\/user running at http:\/\/127\.0\.0\.1:\d+$/),
      'Customer API token: cust-token',
      'Testing API token:  test-token',
    ])
    stopWith('SIGINT')
    expect(await run).toBe(0)
    // Given tokens are never written; the database exists and holds none.
    expect(readSandboxData(dataFile).apiTokens).toEqual({})
  })

  it.each([
    [['--port', 'abc'], '--port takes a number from 0 to 65535, not "abc".'],
    [
      ['--customer-token', 'same', '--testing-token', 'same'],
      'The Customer and Testing tokens must differ: the token decides the environment.',
    ],
    [['--customer-token', 'has space'], 'The Customer token must be non-empty, without spaces or line breaks.'],
  ])('treats %j as a usage mistake', async (argv, sentence) => {
    const dataFile = join(await mkdtemp(join(tmpdir(), 'ec-sandbox-cli-')), 'sandbox.db')
    const { io } = captureIo()
    await expect(sandboxCommand.run([...argv, '--data', dataFile], io)).rejects.toThrow(new UsageError(sentence))
  })

  it('exits 1 with a sentence when the data file cannot be written', async () => {
    const notAFolder = join(await mkdtemp(join(tmpdir(), 'ec-sandbox-cli-')), 'file')
    await writeFile(notAFolder, '')
    const { io, err } = captureIo()
    expect(await sandboxCommand.run(['--data', join(notAFolder, 'sandbox.db')], io)).toBe(1)
    expect(err[0]).toMatch(/^The sandbox could not start: /)
  })
})
