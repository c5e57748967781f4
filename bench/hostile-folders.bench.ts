import { execFile } from 'node:child_process'
import { randomBytes } from 'node:crypto'
import { existsSync } from 'node:fs'
import { mkdir, mkdtemp, symlink, writeFile } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join, resolve } from 'node:path'
import { promisify } from 'node:util'
import { bench, describe } from 'vitest'
import { findCorpus } from '../test/helpers/corpus'
import { nodeScript } from '../test/helpers/node-script'
import { describeSpread, interleave, report, spread } from './lib/stats'

// Docs folders made to exhaust the app (npm run bench; never a timed test): a folder holding a
// link to /, $refs fanning out 1,000 × 1,000 from three files of 80 kB, a 2 MB binary file named
// as a page. Each must get its sentence within seconds, the process staying under 300 MB. Every
// case runs in a fresh process, in turns with its baseline: the same call on an ordinary folder.

const ROUNDS = 5
const WORKER = resolve('out/main/docs-index-worker.js')
const CLI = resolve('bin/embed-console.js')
const PEAK = resolve('bench/lib/report-peak-rss.mjs')
if (!existsSync(WORKER)) throw new Error('Build first (npm run bench does): out/main/docs-index-worker.js is missing.')

const scratch = await mkdtemp(join(tmpdir(), 'ec-bench-hostile-'))
const folder = async (name: string, files: Record<string, string | Buffer>) => {
  const root = join(scratch, name)
  for (const [file, content] of Object.entries(files)) {
    await mkdir(join(root, file, '..'), { recursive: true })
    await writeFile(join(root, file), content)
  }
  return root
}
const config = (navigation: unknown) => JSON.stringify({ theme: 'mint', name: 'Bench', colors: { primary: '#112233' }, navigation })
const fanOut = (count: number) => ({
  'docs.json': config({ groups: Array.from({ length: count }, () => ({ $ref: 'a.json' })) }),
  'a.json': JSON.stringify({ group: 'A', pages: Array.from({ length: count }, () => ({ $ref: 'b.json' })) }),
  'b.json': JSON.stringify({ group: 'B', pages: Array.from({ length: 3500 }, (_, index) => `page-${index}`) }),
})
const pages = { 'docs.json': config({ pages: ['index', 'guide'] }), 'index.mdx': '# Home\n\nSee [the guide](/guide).\n' }

const ordinary = await folder('ordinary', { ...pages, 'guide.mdx': '# Guide\n\nText.\n' })
const linked = await folder('linked', { ...pages, 'guide.mdx': '# Guide\n\nText.\n' })
await symlink('/', join(linked, 'everything'))
const bigFanOut = await folder('fan-out-1000', fanOut(1000))
const smallFanOut = await folder('fan-out-10', fanOut(10))
const binary = await folder('binary-page', { ...pages, 'guide.mdx': randomBytes(2_000_000) })
const crewAi = findCorpus('docsjson').dir
const largestReal = crewAi === null ? null : join(crewAi, 'crewAIInc__crewAI__docs_docs.json')

const probe = await nodeScript(resolve('bench/lib/hostile-probe.ts'))
let round = 0
interface Measured {
  seconds: number
  peakMb: number
  said: string
}

/** The app's main process, through the router: `link` indexes and watches, `refs` reads $ref files and exports. */
const app = async (mode: 'link' | 'refs', docsJson: string): Promise<Measured> => {
  const dataDir = join(scratch, `data-${round++}`)
  const { stdout } = await promisify(execFile)(process.execPath, [probe, mode, dataDir, docsJson, WORKER], { maxBuffer: 1 << 26 })
  const result = JSON.parse(stdout.trim().split('\n').at(-1)!) as { answerMs: number; peakMb: number; sentences: string[] }
  return { seconds: result.answerMs / 1000, peakMb: result.peakMb, said: result.sentences.join(' ') }
}

/** `embed-console validate`, spawn → exit, with its peak RSS. */
const validate = async (...args: string[]): Promise<Measured> => {
  const started = performance.now()
  const run = await promisify(execFile)(process.execPath, ['--import', PEAK, CLI, 'validate', ...args], { maxBuffer: 1 << 26 }).catch(
    (failed: { stdout: string; stderr: string }) => failed,
  )
  const seconds = (performance.now() - started) / 1000
  const peakMb = Number(/peak-rss-mb (\S+)/.exec(run.stderr)?.[1] ?? NaN)
  return { seconds, peakMb, said: run.stdout.split('\n').find((line) => / which would take| too large to be a page/.test(line)) ?? '' }
}

const rows = (label: string, baseline: string, hostile: Measured[], ordinaryRuns: Measured[]): Array<[string, string, string]> => [
  [
    `${label}: until the answer, against ${baseline}`,
    `${describeSpread(spread(hostile.map((m) => m.seconds)), 's')} against ${describeSpread(spread(ordinaryRuns.map((m) => m.seconds)), 's')}`,
    'seconds',
  ],
  [
    `… peak RSS of the process`,
    `${describeSpread(spread(hostile.map((m) => m.peakMb)), 'MB')} against ${describeSpread(spread(ordinaryRuns.map((m) => m.peakMb)), 'MB')}`,
    '< 300 MB',
  ],
]

describe('hostile docs folders', () => {
  bench(
    'a link to /, a 1,000 × 1,000 $ref fan-out, a 2 MB binary page: each against an ordinary folder (interleaved)',
    async () => {
      const results = await interleave(ROUNDS, {
        linked: () => app('link', join(linked, 'docs.json')),
        linkedBaseline: () => app('link', join(ordinary, 'docs.json')),
        fanOut: () => app('refs', join(bigFanOut, 'docs.json')),
        fanOutBaseline: () => app('refs', join(smallFanOut, 'docs.json')),
        validateFanOut: () => validate('--no-files', join(bigFanOut, 'docs.json')),
        validateLargest: () => (largestReal ? validate('--no-files', largestReal) : validate('--no-files', join(smallFanOut, 'docs.json'))),
        validateBinary: () => validate(join(binary, 'docs.json')),
        validateOrdinary: () => validate(join(ordinary, 'docs.json')),
      })
      report(`Hostile docs folders, ${ROUNDS} interleaved rounds, each in a fresh process`, [
        ...rows(
          'app: open a docs.json beside a link to /, index and watch (no folders, then folders through the link), then 10 s of watching',
          'the same in an ordinary folder',
          results.linked,
          results.linkedBaseline,
        ),
        ['… what it said', results.linked[0]!.said, ''],
        ...rows(
          'app: open the 1,000 × 1,000 fan-out (three files, 80 kB), read its $ref files, export it (checked in main)',
          'a 10 × 10 fan-out',
          results.fanOut,
          results.fanOutBaseline,
        ),
        ['… what it said', results.fanOut[0]!.said, ''],
        ...rows(
          '`validate --no-files` on the 1,000 × 1,000 fan-out, spawn → exit',
          largestReal ? 'the largest real docs.json (crewAI, 2.3 MB)' : 'a 10 × 10 fan-out',
          results.validateFanOut,
          results.validateLargest,
        ),
        ['… what it said', results.validateFanOut[0]!.said, ''],
        ...rows(
          '`validate` of a folder with a 2 MB binary page, spawn → exit',
          'the same folder with a text page',
          results.validateBinary,
          results.validateOrdinary,
        ),
        ['… what it said', results.validateBinary[0]!.said, ''],
      ])
    },
    { iterations: 1, time: 0, warmupIterations: 0, warmupTime: 0 },
  )
})
