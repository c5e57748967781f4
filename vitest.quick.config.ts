import { configDefaults, defineConfig, mergeConfig } from 'vitest/config'
import base, { SECURITY_TESTS } from './vitest.config'

/**
 * `npm run test:quick`: every unit test but the ones that take seconds each because they start
 * processes, clusters or thousands of calls (measured: these files are 80% of the unit suite's
 * time). `npm test` runs them all; docs/testing.md says what is left out and why.
 */
export const SLOW_TESTS = [
  'test/unit/site-config/docs-json.test.ts', // 121 real docs.json files through Mintlify's own schema
  'test/unit/cli/groups-apply.test.ts', // bulk runs through the CLI as child processes
  'test/unit/bulk/exactly-once.test.ts', // two processes racing on 200-row plans
  'test/unit/bulk/bulk-run.test.ts', // runs of thousands of rows
  'test/unit/team/**', // a throwaway Postgres cluster
  'test/unit/storage/two-processes.test.ts', // 2 × 2,000 writes from two processes
  'test/unit/storage/full-disk.test.ts', // a tmpfs mount
  'test/unit/site-files/atomic-save-crash.test.ts', // kill -9 mid-save, many times
  'test/unit/storage/json-file-crash.test.ts',
  'test/unit/storage/crash.test.ts',
  'test/unit/user-api/redaction.test.ts', // every encoding of every secret through a real server
  'test/unit/user-api/company-network*.test.ts', // proxies, CAs, a network namespace
  'test/unit/site-files/docs-index.test.ts', // docs folders of many files on a worker
]

export default mergeConfig(base, defineConfig({ test: { exclude: [...configDefaults.exclude, ...SECURITY_TESTS, ...SLOW_TESTS] } }))
