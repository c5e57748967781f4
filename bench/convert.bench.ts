import { execFile } from 'node:child_process'
import { loadavg } from 'node:os'
import { join, resolve } from 'node:path'
import { promisify } from 'node:util'
import { afterAll, bench, describe } from 'vitest'
import { corpusFile } from './lib/corpus-file'
import { describeSpread, interleave, report, spread } from './lib/stats'

// `embed-console convert` of the largest real mint.json (111 KB) to stdout, spawn to exit, against
// its floor: Mintlify's own upgrade (`upgradeToDocsConfig` after `validateMintConfig`, in
// bench/scripts/mintlify-upgrade.mjs) in a process of its own, printing the docs.json it makes.
// Interleaved, the ratio taken per round; `node -e 0` for what any process costs here.
// BENCH_APP_DIR names another checkout (built): its convert joins the rounds.

const ROUNDS = 15
const MINT_JSON = corpusFile('mint', 'ActivateLLC__ag2__mint.json')
const run = promisify(execFile)
const otherDir = process.env.BENCH_APP_DIR ? resolve(process.env.BENCH_APP_DIR) : undefined
const loadBefore = loadavg()[0]!

const timed = (args: string[]) => async () => {
  const started = performance.now()
  const { stdout } = await run(process.execPath, args, { maxBuffer: 1 << 26 })
  if (args.length > 2 && !stdout.includes('"navigation"')) throw new Error(`${args.join(' ')} printed no docs.json`)
  return performance.now() - started
}
const rounds = await interleave<string, number>(ROUNDS, {
  ...(otherDir ? { other: timed([join(otherDir, 'bin/embed-console.js'), 'convert', MINT_JSON]) } : {}),
  node: timed(['-e', '0']),
  ours: timed(['bin/embed-console.js', 'convert', MINT_JSON]),
  mintlify: timed(['bench/scripts/mintlify-upgrade.mjs', MINT_JSON]),
})
const loadAfter = loadavg()[0]!

afterAll(() => {
  report(`convert of a 111 KB mint.json, spawn → exit: ${ROUNDS} interleaved rounds, median (min, max)`, [
    ['Mintlify: `validateMintConfig` + `upgradeToDocsConfig` (the floor)', describeSpread(spread(rounds.mintlify!), 'ms'), ''],
    ['`embed-console convert`', describeSpread(spread(rounds.ours!), 'ms'), ''],
    ['… ÷ the floor, per round', describeSpread(spread(rounds.ours!.map((ms, index) => ms / rounds.mintlify![index]!)), '×'), '≤ 0.5×'],
    ...(otherDir
      ? ([
          [
            `${otherDir} (BENCH_APP_DIR): \`convert\` ÷ the floor, per round`,
            describeSpread(spread(rounds.other!.map((ms, index) => ms / rounds.mintlify![index]!)), '×'),
            '',
          ],
        ] as Array<[string, string, string]>)
      : []),
    ['`node -e 0`', describeSpread(spread(rounds.node!), 'ms'), ''],
    ['load average (1 min) before / after, on 2 cores', `${loadBefore.toFixed(1)} / ${loadAfter.toFixed(1)}`, ''],
  ])
})

describe('convert', () => {
  bench('`embed-console convert` of a 111 KB mint.json', async () => void (await timed(['bin/embed-console.js', 'convert', MINT_JSON])()), {
    iterations: 3,
    time: 0,
  })
})
