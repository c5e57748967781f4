// Mutation testing of the guard modules (npm run test:mutation; not part of npm test: it runs the
// relevant tests once per mutant, for minutes). Each surviving mutant is a guard no test holds.
/** @type {import('@stryker-mutator/api/core').PartialStrykerOptions} */
export default {
  testRunner: 'vitest',
  plugins: ['@stryker-mutator/vitest-runner', './stryker-ignore-sentences.mjs'],
  ignorers: ['sentences'],
  vitest: { configFile: 'vitest.mutation.config.ts', related: false },
  coverageAnalysis: 'perTest',
  mutate: [
    'src-main/user-api/redact.ts',
    'src-shared/json/depth.ts',
    'src-main/site-files/file-access.ts',
    'src-main/site-files/user-file-writes.ts',
    'src-main/storage/atomic-write.ts',
    'src-main/storage/csv-export.ts',
    'src-main/profiles/vault.ts',
    // The journal's writes (the plan in batches, interrupted runs, superseding, takeover, claims,
    // settlements, cancelling). Left out: its read-only views, lines 142-201 (run, view, ownerOf,
    // planned, tallies, runs) and 317-357 (items, allItems, itemView), which shape rows for the
    // screens and decide nothing. Keep these ranges in step with the file.
    'src-main/bulk/bulk-journal.ts:1-141',
    'src-main/bulk/bulk-journal.ts:202-316',
    'src-main/bulk/run-leases.ts',
    'src-main/groups/rotation-journal.ts',
    // The guards: the key and the session cookie, Host, Origin and Sec-Fetch-Site, the body caps,
    // and each path's method and admission (the download's headers included). Left out: the
    // event stream's writer, lines 195-212 (its admission at /events is in), the static files'
    // answer, lines 247-264 (the path guard is readRendererFile's, in static-files.ts), and
    // listening and closing, lines 265-end. Keep these ranges in step with the file.
    'src-main/web/web-server.ts:1-194',
    'src-main/web/web-server.ts:213-246',
    'src-main/bulk/bulk-input.ts',
    'src-shared/bulk/decode.ts',
  ],
  // Mutants in static initialisers run at import, once: testing them per test is not possible.
  ignoreStatic: true,
  concurrency: 2,
  timeoutMS: 20000,
  reporters: ['clear-text', 'progress', 'json', 'html'],
  jsonReporter: { fileName: 'reports/mutation/mutation.json' },
  htmlReporter: { fileName: 'reports/mutation/mutation.html' },
  thresholds: { high: 95, low: 90, break: 90 },
  tempDirName: 'node_modules/.stryker-tmp',
}
