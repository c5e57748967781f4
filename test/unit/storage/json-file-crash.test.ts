import { spawn } from 'node:child_process'
import { mkdtemp, readdir, readFile, stat } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { basename, dirname, join, resolve } from 'node:path'
import { describe, expect, it } from 'vitest'
import { z } from 'zod'
import { readJsonFile, writeJsonFile } from '../../../src-main/storage/json-file'
import { nodeScript } from '../../helpers/node-script'

const SavedSchema = z.object({ save: z.number().int(), pages: z.array(z.string()).length(40_000) })

/** Whether a file named like `path` (the file, or a temporary one beside it) is there but not yet whole. */
async function partlyWritten(path: string, wholeSize: number): Promise<boolean> {
  // The temporary file is hidden: `.<name>.<random>.tmp`.
  const names = (await readdir(dirname(path))).filter((name) => name.startsWith(basename(path)) || name.startsWith(`.${basename(path)}.`))
  for (const name of names) {
    const size = await stat(join(dirname(path), name)).then(
      (found) => found.size,
      () => 0,
    )
    if (size > 0 && size < wholeSize) return true
  }
  return false
}

/**
 * Runs the writer past its first save, then kills it -9 the moment a file beside `path` (the
 * file itself, or a temporary one) is caught part-written: in the middle of a save.
 */
async function killMidSave(path: string): Promise<number> {
  const child = spawn(process.execPath, [await nodeScript(resolve('test/helpers/scripts/json-file-writer.ts')), path], {
    stdio: ['ignore', 'pipe', 'inherit'],
  })
  let wholeSize = 0
  let lastAck = -1
  let pending = ''
  child.stdout!.on('data', (chunk: Buffer) => {
    pending += chunk.toString('utf8')
    const lines = pending.split('\n')
    pending = lines.pop()!
    for (const line of lines) {
      if (line.startsWith('size ')) wholeSize = Number(line.slice(5))
      else lastAck = Number(line.replace('ack ', ''))
    }
  })
  const exited = new Promise<NodeJS.Signals | null>((done) => child.once('exit', (_code, signal) => done(signal)))
  const deadline = Date.now() + 10_000
  for (;;) {
    const caught = await partlyWritten(path, wholeSize)
    if (lastAck >= 0 && caught) break
    if (Date.now() > deadline) throw new Error('No save was caught in the middle within 10 s.')
  }
  child.kill('SIGKILL')
  expect(await exited).toBe('SIGKILL')
  return lastAck
}

// The site editor's recent files and drafts are saved with writeJsonFile (storage/json-file.ts).
describe('kill -9 in the middle of a JSON file save', () => {
  it('leaves the whole previous file or the whole new one, never part of one', { timeout: 60_000 }, async () => {
    const dir = await mkdtemp(join(tmpdir(), 'ec-json-crash-'))
    for (const trial of [1, 2, 3]) {
      const path = join(dir, `file-${trial}.json`)
      const lastAck = await killMidSave(path)
      const parsed = SavedSchema.parse(JSON.parse(await readFile(path, 'utf8')))
      expect(parsed.save).toBeGreaterThanOrEqual(lastAck)
      expect((await readJsonFile(path, SavedSchema)).state).toBe('read')
    }
  })

  it('leaves no temporary file behind once the next save has run', { timeout: 60_000 }, async () => {
    const dir = await mkdtemp(join(tmpdir(), 'ec-json-leftover-'))
    const path = join(dir, 'file.json')
    await killMidSave(path)
    // The killed save's temporary file is there, part-written: no one else would ever remove it.
    expect((await readdir(dir)).filter((name) => name.endsWith('.tmp'))).toHaveLength(1)
    await writeJsonFile(path, { save: -1, pages: [] })
    expect(await readdir(dir)).toEqual(['file.json'])
  })
})
