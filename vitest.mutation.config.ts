import { defineConfig } from 'vitest/config'
import base from './vitest.config'

/**
 * The tests that hold the guard modules (stryker.config.mjs), in this process: a mutant lives in
 * the test's own module graph, so tests that run the app as a child process cannot see it and
 * are left out here (they run in npm test).
 */
export default defineConfig({
  ...base,
  test: {
    ...base.test,
    setupFiles: ['test/mutation/import-guards.ts'],
    // Instrumented for every mutant and timed per test, the code runs several times slower: the
    // 64-level router test passed its 20 s in the first run with the machine busy.
    testTimeout: 60_000,
    include: [
      'test/unit/user-api/redaction.test.ts',
      'test/unit/user-api/client-hostile.test.ts',
      'test/unit/foundation/router.test.ts',
      'test/unit/foundation/web-server.test.ts',
      'test/unit/sandbox/sandbox-http.test.ts',
      'test/unit/site-files/*.test.ts',
      'test/unit/user-files/*.test.ts',
      'test/unit/storage/full-disk.test.ts',
      'test/unit/storage/atomic-write.test.ts',
      'test/unit/storage/csv-export.test.ts',
      'test/unit/storage/legacy-import.test.ts',
      'test/unit/profiles/vault.test.ts',
      'test/unit/bulk/bulk-input.test.ts',
      'test/unit/bulk/bulk-results.test.ts',
      'test/unit/bulk/decode.test.ts',
      'test/unit/bulk/run-leases.test.ts',
      'test/unit/bulk/row-claims.test.ts',
      'test/unit/bulk/bulk-run.test.ts',
      'test/unit/bulk/group-commit.test.ts',
      'test/unit/team/team-run-leases.test.ts',
      'test/unit/site-config/deep-json.test.ts',
      'test/unit/groups/rotation-settling.test.ts',
      'test/unit/groups/rotation-journal.test.ts',
      'test/unit/groups/group-service.test.ts',
      'test/unit/groups/echoed-secrets.test.ts',
    ],
    // Run in npm test, not once per mutant: the kill -9 test writes through child processes, as
    // the SIGTERM test watches (neither can see a mutant), and the bounds test writes 5,001 pages
    // in as many folders for each run.
    exclude: [
      ...(base.test?.exclude ?? []),
      'test/unit/site-files/atomic-save-crash.test.ts',
      'test/unit/site-files/one-answer-bounds.test.ts',
      'test/unit/site-files/docs-index-sigterm.test.ts',
    ],
  },
})
