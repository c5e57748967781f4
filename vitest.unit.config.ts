import { configDefaults, defineConfig, mergeConfig } from 'vitest/config'
import base, { SECURITY_TESTS } from './vitest.config'

/**
 * The files that need a module graph of their own: they replace a module for the whole graph
 * (vi.mock of electron, of a bound or of the JSON scanner), saw another file's leftovers when they shared one (the
 * docs folder's SIGTERM test, whose child then died on the signal), or watch what a module does
 * at a first load another file may already have made (undici's, in the dispatchers). `npm run
 * test:unit` runs them in a second pass, each in its own graph (vitest.isolated.config.ts).
 */
export const ISOLATED_TESTS = [
  'test/unit/foundation/electron-shell.test.ts',
  'test/unit/site-files/electron-file-dialogs.test.ts',
  'test/unit/site-files/one-answer-bounds.test.ts',
  'test/unit/site-files/docs-index.test.ts',
  'test/unit/site-files/docs-index-sigterm.test.ts',
  'test/unit/site-files/raw-view-scans.test.ts',
  'test/unit/user-api/undici-loading.test.ts',
]

/**
 * `npm run test:unit`, first pass: every other unit test, with the modules a worker has loaded
 * kept from one file to the next. Loading them again for each of 117 files took 124 s of the
 * run's 280 s on these 2 cores; kept, the run takes about 3 minutes.
 */
export default mergeConfig(
  base,
  defineConfig({ test: { isolate: false, exclude: [...configDefaults.exclude, ...SECURITY_TESTS, ...ISOLATED_TESTS] } }),
)
