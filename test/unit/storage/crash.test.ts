import { type ChildProcess, spawn } from 'node:child_process'
import { mkdtemp } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join, resolve } from 'node:path'
import Libsql from 'libsql'
import { describe, expect, it } from 'vitest'
import { startSandbox } from '../../../src-main/sandbox/sandbox-server'
import { createUserApiClient } from '../../../src-main/user-api/client'
import { nodeScript } from '../../helpers/node-script'
import { readSandboxData } from '../../helpers/sandbox-data'

/** Starts a bundled script and collects its output lines as they come. */
async function startScript(
  entry: string,
  ...args: string[]
): Promise<{ child: ChildProcess; lines: string[]; exited: Promise<NodeJS.Signals | null> }> {
  const child = spawn(process.execPath, [await nodeScript(resolve(entry)), ...args], { stdio: ['ignore', 'pipe', 'inherit'] })
  const lines: string[] = []
  let pending = ''
  child.stdout!.on('data', (chunk: Buffer) => {
    pending += chunk.toString('utf8')
    const complete = pending.split('\n')
    pending = complete.pop()!
    lines.push(...complete)
  })
  const exited = new Promise<NodeJS.Signals | null>((done) => child.once('exit', (_code, signal) => done(signal)))
  return { child, lines, exited }
}

const until = async (condition: () => boolean) => {
  while (!condition()) await new Promise((next) => setTimeout(next, 5))
}

describe('kill -9 in the middle of writes', () => {
  it('keeps every acknowledged profile and token, and the database opens whole', { timeout: 60_000 }, async () => {
    const dataDir = await mkdtemp(join(tmpdir(), 'ec-crash-app-'))
    const writer = await startScript('test/helpers/scripts/acknowledging-writer.ts', dataDir)
    await until(() => writer.lines.length >= 300)
    writer.child.kill('SIGKILL')
    expect(await writer.exited).toBe('SIGKILL')
    const acknowledged = writer.lines.map((line) => line.replace(/^ack /, ''))

    const db = new Libsql(join(dataDir, 'embed-console.db'), { readonly: true })
    try {
      expect(db.prepare('PRAGMA integrity_check').get()).toMatchObject({ integrity_check: 'ok' })
      const names = new Set((db.prepare('SELECT name FROM profiles').all() as Array<{ name: string }>).map((row) => row.name))
      for (const name of acknowledged) expect(names.has(name)).toBe(true)
      const secrets = db.prepare("SELECT count(*) AS n FROM secrets WHERE storage = 'file'").get() as { n: number }
      expect(secrets.n).toBeGreaterThanOrEqual(acknowledged.length)
    } finally {
      db.close()
    }
  })

  it('keeps every sandbox create that was answered, and the sandbox starts again', { timeout: 60_000 }, async () => {
    const dataFile = join(await mkdtemp(join(tmpdir(), 'ec-crash-sandbox-')), 'sandbox.db')
    const server = await startScript('test/helpers/scripts/sandbox-process.ts', dataFile)
    await until(() => server.lines.length > 0)
    const { baseUrl, token } = JSON.parse(server.lines[0]!) as { baseUrl: string; token: string }
    const client = createUserApiClient({ baseUrl, apiToken: token, timeoutMs: 2000 })
    const answered: string[] = []
    // Four callers at once, killed while requests are in flight.
    const callers = Array.from({ length: 4 }, async (_, caller) => {
      for (let index = 0; ; index++) {
        const id = `crash-${caller}-${index}`
        try {
          await client.getOrCreate({ user_group_id: id })
        } catch {
          return
        }
        answered.push(id)
        if (answered.length === 400) server.child.kill('SIGKILL')
      }
    })
    await Promise.all(callers)
    expect(await server.exited).toBe('SIGKILL')

    const restarted = await startSandbox({ dataFile })
    try {
      expect(restarted.tokens.Customer).toBe(token)
      const stored = new Set(readSandboxData(dataFile).groups.map((group) => group.provided_id))
      for (const id of answered) expect(stored.has(id)).toBe(true)
    } finally {
      await restarted.close()
    }
  })
})
