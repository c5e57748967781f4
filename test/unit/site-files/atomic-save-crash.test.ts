import { spawn } from 'node:child_process'
import { readFile, writeFile } from 'node:fs/promises'
import { join, resolve } from 'node:path'
import { build } from 'vite'
import { beforeAll, describe, expect, it } from 'vitest'
import { tempDir } from './helpers'

// A save killed with SIGKILL in the middle leaves the old file or the new one, never a torn one:
// the app's own write (writeTextAtomically) runs in a child process that is killed at random
// moments while it saves 8 MB texts. A plain writeFile truncates first and fails this test.

const SIZE = 8_000_000
const ROUNDS = 12
const textOf = (name: string) => `${JSON.stringify({ name, navigation: [{ group: name, pages: [name.repeat(SIZE)] }] }, null, 2)}\n`
let writer: string

beforeAll(async () => {
  // The child runs the TypeScript source, bundled once (its packages stay in node_modules).
  const outDir = resolve('test-results/crash-writer')
  await build({
    configFile: false,
    logLevel: 'silent',
    build: {
      ssr: resolve(import.meta.dirname, 'support/crash-writer.ts'),
      outDir,
      emptyOutDir: true,
      rollupOptions: { output: { entryFileNames: 'crash-writer.mjs' } },
    },
  })
  writer = join(outDir, 'crash-writer.mjs')
}, 60_000)

/** Starts the writer, lets it begin a save (after a few whole ones), and kills it `delayMs` later. */
function killMidSave(path: string, delayMs: number, wholeSaves: number): Promise<void> {
  return new Promise((resolveKilled, reject) => {
    const child = spawn(process.execPath, [writer, path, String(SIZE)], { stdio: ['ignore', 'pipe', 'inherit'] })
    let started = 0
    let killing = false
    child.stdout.on('data', (chunk: Buffer) => {
      started += chunk.toString().split('writing').length - 1
      // At least: under load two "writing" lines can arrive in one chunk.
      if (started >= wholeSaves + 1 && !killing) {
        killing = true
        setTimeout(() => child.kill('SIGKILL'), delayMs)
      }
    })
    child.on('exit', (code, signal) => (signal === 'SIGKILL' ? resolveKilled() : reject(new Error(`the writer exited with ${code}`))))
  })
}

describe('a save killed in the middle (kill -9)', () => {
  it('leaves the old file or the new one, whole, every time', async () => {
    const folder = await tempDir('ec-crash-')
    const path = join(folder, 'site.json')
    const whole = new Set([textOf('a'), textOf('b')])
    await writeFile(path, textOf('b'))
    const torn: number[] = []
    for (let round = 0; round < ROUNDS; round++) {
      await killMidSave(path, 1 + ((round * 7) % 15), round % 3)
      const text = await readFile(path, 'utf8')
      if (!whole.has(text)) torn.push(text.length)
    }
    expect(torn).toEqual([])
  }, 120_000)
})
