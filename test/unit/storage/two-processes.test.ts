import { execFile } from 'node:child_process'
import { mkdtemp } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join, resolve } from 'node:path'
import { promisify } from 'node:util'
import Libsql from 'libsql'
import { describe, expect, it } from 'vitest'
import { appMigrations } from '../../../src-main/app-database'
import { SANDBOX_PROFILE_ID } from '../../../src-main/app-services'
import { nodeScript } from '../../helpers/node-script'

const run = promisify(execFile)
const WRITES = 1000

const count = (path: string, sql: string, ...params: string[]) => {
  const db = new Libsql(path, { readonly: true })
  try {
    return (db.prepare(sql).get(...params) as { n: number }).n
  } finally {
    db.close()
  }
}

describe('two processes on one data folder', () => {
  it(`lose no update: ${WRITES} profiles and ${WRITES} group calls each, all present after`, { timeout: 120_000 }, async () => {
    const dataDir = await mkdtemp(join(tmpdir(), 'ec-two-processes-'))
    const script = await nodeScript(resolve('test/helpers/scripts/concurrent-writer.ts'))
    // Both start at once: migrations, API tokens and sandboxes race too.
    const [a, b] = await Promise.all(
      ['a', 'b'].map(
        async (label) =>
          JSON.parse((await run(process.execPath, [script, dataDir, label, String(WRITES)], { maxBuffer: 1 << 24 })).stdout) as {
            createdGroups: string[]
            failures: string[]
            sandbox: unknown
          },
      ),
    )
    expect({ failures: a!.failures.slice(0, 3), sandbox: a!.sandbox }).toEqual({
      failures: [],
      sandbox: expect.objectContaining({ state: 'running' }),
    })
    expect({ failures: b!.failures.slice(0, 3), sandbox: b!.sandbox }).toEqual({
      failures: [],
      sandbox: expect.objectContaining({ state: 'running' }),
    })

    const app = join(dataDir, 'embed-console.db')
    const sandbox = join(dataDir, 'sandbox.db')
    expect(count(app, 'SELECT count(*) AS n FROM profiles')).toBe(2 * WRITES)
    expect(count(app, 'SELECT count(*) AS n FROM activity')).toBe(2 * WRITES)
    // 500 ids each of its own, 500 shared: 1,500 groups, in the catalog and in the sandbox.
    expect(count(app, 'SELECT count(*) AS n FROM catalog WHERE profile_id = ?', SANDBOX_PROFILE_ID)).toBe(1.5 * WRITES)
    expect(count(sandbox, 'SELECT count(*) AS n FROM groups')).toBe(1.5 * WRITES)
    // Every shared id was created exactly once, by one process or the other.
    const created = [...a!.createdGroups, ...b!.createdGroups]
    expect(created).toHaveLength(1.5 * WRITES)
    expect(new Set(created).size).toBe(created.length)
    // Each migration applied once, though both processes started at the same time.
    expect(count(app, 'SELECT count(*) AS n FROM schema_migrations')).toBe(appMigrations.length)
  })
})
