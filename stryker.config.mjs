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
    'src-main/user-files/file-access.ts',
    'src-main/user-files/user-file-writes.ts',
    'src-main/storage/atomic-write.ts',
    'src-main/storage/csv-export.ts',
    'src-main/profiles/vault.ts',
    // The journal's writes (the plan in batches, interrupted runs, superseding, takeover, claims,
    // settlements, cancelling); its read-only views are marked `Stryker disable all` in the file.
    'src-main/bulk/bulk-journal.ts',
    'src-main/bulk/run-leases.ts',
    'src-main/groups/rotation-journal.ts',
    // Browser mode's guards: the key and the session cookie (web-sessions.ts), Host, Origin and
    // Sec-Fetch-Site (web-admission.ts), the body caps (web-answers.ts), and each path's method and
    // admission (web-server.ts, the download's headers included). The event stream's writer
    // (web-event-stream.ts), the static files' answer (web-static-files.ts), and listening and
    // closing are marked `Stryker disable all`.
    'src-main/web/web-server.ts',
    'src-main/web/web-sessions.ts',
    'src-main/web/web-admission.ts',
    'src-main/web/web-answers.ts',
    'src-main/bulk/bulk-input.ts',
    'src-shared/bulk/decode.ts',
    // The UTF-8 test decode.ts and the site files share.
    'src-shared/text/utf8.ts',
  ],
  // Mutants in static initialisers run at import, once: testing them per test is not possible.
  ignoreStatic: true,
  concurrency: 2,
  timeoutMS: 20000,
  // The first run of the whole set, to learn which test covers which mutant, takes about 5 minutes
  // on these 2 cores: past Stryker's default limit of 5.
  dryRunTimeoutMinutes: 15,
  reporters: ['clear-text', 'progress', 'json', 'html'],
  jsonReporter: { fileName: 'reports/mutation/mutation.json' },
  htmlReporter: { fileName: 'reports/mutation/mutation.html' },
  thresholds: { high: 95, low: 90, break: 90 },
  tempDirName: 'node_modules/.stryker-tmp',
}
