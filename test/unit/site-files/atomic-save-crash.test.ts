import { type ChildProcess, spawn } from 'node:child_process'
import { watch } from 'node:fs'
import { mkdir, readdir, readFile, writeFile } from 'node:fs/promises'
import { join, resolve } from 'node:path'
import { build } from 'vite'
import { beforeAll, describe, expect, it } from 'vitest'
import { saveJournalsIn } from '../../../src-main/site-files/site-file-saves'
import { nodeScript } from '../../helpers/node-script'
import { siteFiles, tempDir } from './helpers'
import { saveSetOf } from './support/save-sets'

// A save killed with SIGKILL in the middle leaves the old file or the new one, never a torn one:
// the app's own write (writeTextAtomically) runs in a child process that is killed at random
// moments while it saves 2 MB texts, and read while stopped at every change it makes. A plain
// writeFile truncates first and writes in 512 kB pieces, so it is seen torn: it fails this test.

const SIZE = 2_000_000
const ROUNDS = 10
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

/**
 * Starts a writer (a script and its arguments), lets it begin a save after `wholeSaves` whole
 * ones (it prints `said` before each), and kills it `delayMs` later.
 */
function killMidSave(args: string[], said: string, delayMs: number, wholeSaves: number): Promise<void> {
  return new Promise((resolveKilled, reject) => {
    const child = spawn(process.execPath, args, { stdio: ['ignore', 'pipe', 'inherit'] })
    let started = 0
    let killing = false
    child.stdout.on('data', (chunk: Buffer) => {
      started += chunk.toString().split(said).length - 1
      // At least: under load two lines can arrive in one chunk.
      if (started >= wholeSaves + 1 && !killing) {
        killing = true
        setTimeout(() => child.kill('SIGKILL'), delayMs)
      }
    })
    child.on('exit', (code, signal) => (signal === 'SIGKILL' ? resolveKilled() : reject(new Error(`the writer exited with ${code}`))))
  })
}

type JournalState = 'prepared' | 'committed'
interface JournalEntry {
  path: string
  temporary: string
}

/** The entries of the journal in `journals` that is in `state`, as its writer last wrote it whole, or null. */
async function journalIn(journals: string, state: JournalState): Promise<JournalEntry[] | null> {
  for (const name of await readdir(journals)) {
    if (name.startsWith('.') || !name.endsWith('.json')) continue
    const journal = JSON.parse((await readFile(join(journals, name), 'utf8').catch(() => null)) ?? '{}') as {
      state?: string
      files?: JournalEntry[]
    }
    if (journal.state === state) return journal.files!
  }
  return null
}

/** The name a docs.json (or the temporary file of one) gives, read before it may be renamed. */
async function docsNameIn(entry: JournalEntry): Promise<string> {
  const text = await readFile(entry.temporary, 'utf8').catch(() => readFile(entry.path, 'utf8'))
  return (JSON.parse(text) as { name: string }).name
}

/**
 * At each change `child` makes in `folder`, stops it (SIGSTOP) and asks `look` while it stands
 * still: 'kill' ends it (SIGKILL), 'go on' lets it run (SIGCONT) to its next change; changes
 * made while looking are looked at once more. Resolves once the child is killed.
 */
function stopAtEachChange(child: ChildProcess, folder: string, look: () => Promise<'kill' | 'go on'>): Promise<void> {
  return new Promise((resolveKilled, reject) => {
    let looking = false
    let lookAgain = false
    const onChange = async () => {
      if (looking) return void (lookAgain = true)
      looking = true
      do {
        lookAgain = false
        child.kill('SIGSTOP')
        if ((await look()) === 'kill') return void child.kill('SIGKILL')
        child.kill('SIGCONT')
      } while (lookAgain)
      looking = false
    }
    const watcher = watch(folder, () => void onChange().catch(reject))
    child.on('exit', (code, signal) => {
      watcher.close()
      if (signal === 'SIGKILL') resolveKilled()
      else reject(new Error(`the writer exited with ${code}`))
    })
  })
}

/**
 * Starts a writer and kills it while its save's journal is in `state`, whatever the machine's
 * speed: killed only if a journal is in that state when the writer is stopped at a change in the
 * journals folder; else the next save is another chance. Answers the name the docs.json must
 * give after recovery: the old one before the commit point (nothing is renamed before it), the
 * one being saved after it.
 */
async function killInJournalState(args: string[], journals: string, state: JournalState): Promise<string> {
  const child = spawn(process.execPath, args, { stdio: ['ignore', 'ignore', 'inherit'] })
  let expected: string | undefined
  let looks = 0
  await stopAtEachChange(child, journals, async () => {
    const docs = (await journalIn(journals, state))?.find(({ path }) => path.endsWith('docs.json'))
    if (docs)
      expected = state === 'prepared' ? (JSON.parse(await readFile(docs.path, 'utf8')) as { name: string }).name : await docsNameIn(docs)
    return expected !== undefined || ++looks > 5_000 ? 'kill' : 'go on'
  })
  if (expected === undefined) throw new Error(`the writer was never seen with a journal ${state}`)
  return expected
}

/**
 * Starts a writer, reads `path` at each change it makes in `folder` while it stands still, and
 * kills it at its `killAt`-th change. Answers what was seen that was not `whole`, by length: a
 * write that truncates first is seen half-written at once.
 */
async function readAtEachChange(args: string[], folder: string, path: string, killAt: number, whole: Set<string>): Promise<number[]> {
  const child = spawn(process.execPath, args, { stdio: ['ignore', 'ignore', 'inherit'] })
  const torn: number[] = []
  let changes = 0
  await stopAtEachChange(child, folder, async () => {
    const text = await readFile(path, 'utf8')
    if (!whole.has(text)) torn.push(text.length)
    return ++changes >= killAt ? 'kill' : 'go on'
  })
  return torn
}

describe('a save killed in the middle (kill -9)', () => {
  it('leaves the old file or the new one, whole, every time', async () => {
    const folder = await tempDir('ec-crash-')
    const path = join(folder, 'site.json')
    const whole = new Set([textOf('a'), textOf('b')])
    await writeFile(path, textOf('b'))
    const args = [writer, path, String(SIZE)]
    const torn: number[] = []
    for (let round = 0; round < ROUNDS; round++) {
      // Anywhere in a save: encoding the text takes about half its time, writing it the rest.
      await killMidSave(args, 'writing', (round * 7) % 24, round % 3)
      const text = await readFile(path, 'utf8')
      if (!whole.has(text)) torn.push(text.length)
    }
    // And at every change the writer makes in the folder, the file read while the writer stands still.
    for (const killAt of [1, 2, 3, 5, 8, 13]) torn.push(...(await readAtEachChange(args, folder, path, killAt, whole)))
    expect(torn).toEqual([])
  }, 120_000)
})

describe('a docs.json saved with its $ref file, killed in the middle (kill -9), many times', () => {
  const PADDING = 400_000
  const KILLS = 16
  const sets = { a: saveSetOf('a', PADDING), b: saveSetOf('b', PADDING) }

  it(
    'leaves both files of the old save or both of the new, and the next open completes or undoes an interrupted one and says so',
    { timeout: 300_000 },
    async () => {
      const saver = await nodeScript(resolve(import.meta.dirname, 'support/set-saver.ts'))
      const [folder, dataDir] = await Promise.all([tempDir('ec-set-crash-'), tempDir('ec-set-crash-data-')])
      const docsPath = join(folder, 'docs.json')
      await writeFile(docsPath, sets.b.docs)
      await writeFile(join(folder, 'nav.json'), sets.b.nav)
      const mixed: string[] = []
      const leftovers: string[] = []
      const said: string[] = []
      const journals = saveJournalsIn(dataDir)
      await mkdir(journals, { recursive: true, mode: 0o700 })
      const args = [saver, dataDir, docsPath, String(PADDING)]
      // Anywhere in a save (its checks and reads take about half its time, its writes the rest);
      // then, whatever the machine's speed, on each side of the commit point.
      const kills = [
        ...Array.from({ length: KILLS }, (_, round) => () => killMidSave(args, 'saving', (round * 53) % 350, round % 2)),
        ...(['prepared', 'committed', 'prepared', 'committed'] as const).map((state) => () => killInJournalState(args, journals, state)),
      ]
      const outcomes: string[] = []
      for (const [round, kill] of kills.entries()) {
        const expected = await kill()
        // The next open, as the next launch of the app makes it.
        const opened = await siteFiles(dataDir).open(docsPath)
        if (opened.recovered) said.push(opened.recovered)
        if (expected) {
          const outcome = /completed/.test(opened.recovered ?? '')
            ? 'completed'
            : /undone/.test(opened.recovered ?? '')
              ? 'undone'
              : 'nothing said'
          outcomes.push(
            `${outcome}, docs.json of ${(JSON.parse(opened.text) as { name: string }).name === expected ? 'the right save' : 'the wrong save'}`,
          )
        }
        const nav = await readFile(join(folder, 'nav.json'), 'utf8')
        const pair = Object.entries(sets).find(([, set]) => set.docs === opened.text && set.nav === nav)
        if (!pair)
          mixed.push(
            `round ${round}: docs.json of ${(JSON.parse(opened.text) as { name: string }).name}, nav.json of ${(JSON.parse(nav) as { marker: string }).marker}`,
          )
        // Nothing of an interrupted save is left beside the files, or in the data folder.
        const left = [...(await readdir(folder)), ...(await readdir(join(dataDir, 'site-saves')).catch(() => []))]
        if (left.length !== 2) leftovers.push(`round ${round}: ${left.sort().join(', ')}`)
      }
      expect(mixed).toEqual([])
      expect(leftovers).toEqual([])
      // Killed before the commit point the save is undone; after it, completed; each time it is said.
      expect(outcomes).toEqual([
        'undone, docs.json of the right save',
        'completed, docs.json of the right save',
        'undone, docs.json of the right save',
        'completed, docs.json of the right save',
      ])
      for (const sentence of said)
        expect(sentence).toMatch(
          /^The last save of docs\.json with its \$ref file nav\.json was interrupted (\(Embed Console stopped in the middle of it\): it has been completed, so every file holds what was saved|before any file was replaced \(Embed Console stopped in the middle of it\): it has been undone, so the files are as they were before it)\.$/,
        )
    },
  )
})
