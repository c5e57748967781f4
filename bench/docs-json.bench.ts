import { execFile } from 'node:child_process'
import { readFileSync } from 'node:fs'
import { promisify } from 'node:util'
import { validateDocsConfig } from '@mintlify/validation'
import { afterAll, bench, describe } from 'vitest'
import { checkDocsConfig } from '../src-shared/site-config/docs-validate'
import { corpusFile } from './lib/corpus-file'
import { describeSpread, interleave, report, spread } from './lib/stats'

// The largest real docs.json (crewAI's, 2.3 MB, 22,992 pages) checked by the CLI, a new
// process from spawn to exit, against Mintlify's validator alone on it (@mintlify/validation's
// validateDocsConfig after JSON.parse, in this process, warmed up): interleaved rounds.

const ROUNDS = 11
const LARGEST = corpusFile('docsjson', 'crewAIInc__crewAI__docs_docs.json')
const run = promisify(execFile)
const text = readFileSync(LARGEST, 'utf8')

const timedSync = (work: () => unknown) => async () => {
  const started = performance.now()
  work()
  return performance.now() - started
}

const rounds = await interleave(ROUNDS, {
  cli: async () => {
    const started = performance.now()
    await run(process.execPath, ['bin/embed-console.js', 'validate', '--no-files', LARGEST], { maxBuffer: 64 * 1024 * 1024 })
    return performance.now() - started
  },
  mintlify: timedSync(() => validateDocsConfig(JSON.parse(text))),
  ours: timedSync(() => checkDocsConfig(JSON.parse(text))),
})

afterAll(() => {
  const faster = rounds.cli.map((ms, index) => rounds.mintlify[index]! - ms)
  report(`docs.json, the largest real file (2.3 MB, 22,992 pages): ${ROUNDS} interleaved rounds, median (min, max)`, [
    ['`embed-console validate --no-files` on it, spawn → exit', describeSpread(spread(rounds.cli), 'ms'), '< Mintlify’s validator alone'],
    [
      'Mintlify’s validator alone (JSON.parse + validateDocsConfig, in process, the baseline)',
      describeSpread(spread(rounds.mintlify), 'ms'),
      '',
    ],
    ['… the baseline less the CLI, per round', describeSpread(spread(faster), 'ms'), '> 0'],
    ['our check alone (JSON.parse + checkDocsConfig, in process)', describeSpread(spread(rounds.ours), 'ms'), ''],
  ])
})

describe('docs.json validation', () => {
  bench('checkDocsConfig on the largest real docs.json', () => void (text && checkDocsConfig(JSON.parse(text))), { iterations: 5, time: 0 })
})
