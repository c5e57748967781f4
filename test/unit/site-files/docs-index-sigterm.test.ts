import { spawn } from 'node:child_process'
import { existsSync } from 'node:fs'
import { symlink, writeFile } from 'node:fs/promises'
import { join, resolve } from 'node:path'
import { describe, expect, it } from 'vitest'
import { nodeScript } from '../../helpers/node-script'
import { BUILT_WORKER, tempDir } from './helpers'

// The app in a process of its own, as `embed-console web` runs it: no mutant of this process
// reaches it, so the mutation run leaves this file out.
describe('a process watching a docs folder a cloned repository may have made hostile', () => {
  it('exits at once on SIGTERM while it watches a folder holding a link to /', { timeout: 90_000 }, async () => {
    expect(existsSync(BUILT_WORKER), 'the built worker (run npm run build first)').toBe(true)
    const root = await tempDir('ec-docs-sigterm-')
    await symlink('/', join(root, 'everything'))
    await writeFile(join(root, 'docs.json'), JSON.stringify({ name: 'D', navigation: { pages: ['index'] } }))
    const script = await nodeScript(resolve('test/helpers/scripts/docs-watch-process.ts'))
    for (const watch of [undefined, JSON.stringify(['', 'everything', 'everything/usr'])]) {
      const dataDir = await tempDir('ec-docs-sigterm-data-')
      const args = [script, dataDir, join(root, 'docs.json'), BUILT_WORKER, ...(watch === undefined ? [] : [watch])]
      const child = spawn(process.execPath, args, { stdio: ['ignore', 'pipe', 'inherit'] })
      const said = await new Promise<string>((ready) => child.stdout.once('data', (chunk: Buffer) => ready(chunk.toString())))
      expect(JSON.parse(said)).toMatchObject({ watching: true })
      const exited = new Promise<{ code: number | null; signal: string | null }>((done) =>
        child.on('exit', (code, signal) => done({ code, signal })),
      )
      child.kill('SIGTERM')
      // Still running after 30 s is not an exit on SIGTERM: killed, and the test fails on its signal.
      const deadline = setTimeout(() => child.kill('SIGKILL'), 30_000)
      expect(await exited).toEqual({ code: 0, signal: null })
      clearTimeout(deadline)
    }
  })
})
