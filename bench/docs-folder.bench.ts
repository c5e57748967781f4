import { execFile } from 'node:child_process'
import { existsSync } from 'node:fs'
import { mkdir, mkdtemp, writeFile } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join, resolve } from 'node:path'
import { promisify } from 'node:util'
import { bench, describe } from 'vitest'
import { nodeScript } from '../test/helpers/node-script'
import { describeSpread, interleave, percentile, report, spread } from './lib/stats'

// The docs folder index's target (npm run bench; never a timed test): indexing a docs folder of 100,000 files
// keeps every call under 100 ms and the process under 300 MB. The baseline is the same index on
// main's own thread, as before (the landed code), in the same run; each case in a fresh process.

const FILES = 100_000
const ROUNDS = 3
const WORKER = resolve('out/main/docs-index-worker.js')
if (!existsSync(WORKER)) throw new Error('Build first (npm run bench does): out/main/docs-index-worker.js is missing.')

const root = await mkdtemp(join(tmpdir(), 'ec-bench-docs-'))
for (let folder = 0; folder < 200; folder++) {
  await mkdir(join(root, `section-${folder}`))
  await Promise.all(
    Array.from({ length: FILES / 200 }, (_, index) =>
      writeFile(
        join(root, `section-${folder}`, `page-${index}.mdx`),
        `---\ntitle: Page ${folder}.${index}\ndescription: A page of the benchmark.\n---\n\n# Page\n\nText.\n`,
      ),
    ),
  )
}
await writeFile(join(root, 'mint.json'), JSON.stringify({ name: 'Huge', navigation: [{ group: 'One', pages: ['section-0/page-0'] }] }))
const probe = await nodeScript(resolve('bench/lib/docs-index-probe.ts'))
let round = 0

interface Probe {
  indexMs: number
  latencies: number[]
  peakMb: number
  pages: number
  truncated: boolean
}

const run = async (worker: string): Promise<Probe> => {
  const dataDir = join(root, '..', `ec-bench-docs-data-${process.pid}-${round++}`)
  const { stdout } = await promisify(execFile)(process.execPath, [probe, root, dataDir, worker], { maxBuffer: 64 * 1024 * 1024 })
  return JSON.parse(stdout.trim().split('\n').at(-1)!) as Probe
}

describe('docs folder of 100,000 files', () => {
  bench(
    'index on a worker thread, against main’s own thread (interleaved)',
    async () => {
      const results = await interleave(ROUNDS, { worker: () => run(WORKER), inline: () => run('inline') })
      const rows = (name: 'worker' | 'inline', label: string): Array<[string, string, string]> => {
        const probes = results[name]
        return [
          [
            `${label}: the slowest call while indexing (profiles.list due every 10 ms, timed from when it was due)`,
            describeSpread(spread(probes.map((p) => Math.max(...p.latencies))), 'ms'),
            name === 'worker' ? '< 100 ms' : '',
          ],
          [`${label}: the 99th percentile call`, describeSpread(spread(probes.map((p) => percentile(p.latencies, 99))), 'ms'), ''],
          [
            `${label}: peak RSS of the process`,
            describeSpread(spread(probes.map((p) => p.peakMb)), 'MB'),
            name === 'worker' ? '< 300 MB' : '',
          ],
          [
            `${label}: the index, start to end (${probes[0]!.pages.toLocaleString('en')} pages, truncated: ${probes[0]!.truncated})`,
            describeSpread(spread(probes.map((p) => p.indexMs / 1000)), 's'),
            '',
          ],
        ]
      }
      report(`Docs folder of ${FILES.toLocaleString('en')} files, ${ROUNDS} interleaved rounds`, [
        ...rows('worker', 'worker thread'),
        ...rows('inline', 'baseline: main’s own thread'),
      ])
    },
    { iterations: 1, time: 0, warmupIterations: 0, warmupTime: 0 },
  )
})
