import type { Command } from './usage'

// What `groups --help` and `groups apply --help` say of apply, apart from the code that runs it,
// so that a help or a single call does not load the bulk modules.

export const APPLY_SUMMARY =
  'Get or create, and update, every group a CSV, JSON or JSON Lines file lists (at most 100,000 rows): checked, planned, paced, journaled and resumable.'

const APPLY_USAGE = [
  'embed-console groups apply FILE (--profile NAME | --base-url URL) [options]',
  '',
  'CSV: a header row naming user_group_id, name, mapping, properties (the last two as JSON text).',
  'Every row is checked before anything is sent; the run is journaled row by row in the data folder,',
  'so an interrupted run goes on with --resume and never creates a group twice. One process sends a',
  'run at a time: the same file started elsewhere (the app, another terminal) is refused, naming it.',
  'Five requests in a row that find the server down (no connection, a timeout, a 5xx) pause the run.',
  '',
  'Options:',
  '  --dry-run             plan only: what would be created, updated, left unchanged',
  '  --concurrency N       requests at once (default 4, at most 32)',
  '  --rate N              requests a minute (default: no limit on loopback, 120 otherwise)',
  '  --resume              go on with the last run of this file that did not finish',
  '  --exclude-invalid     send the valid rows and leave the bad ones out',
  '  --rotate              rotate the tokens of the groups the file lists (needs --profile)',
  '  --fetch               fetch the current token of every group the file lists that this profile or the',
  "                        team knows, and keep it (after a colleague's rotations; needs --profile)",
  '  --bail                pause at the first row that fails, not only when the server is down',
  '  --encoding ENC        utf-8 (default; a byte order mark decides first) or windows-1252',
  `  --data-dir DIR        where profiles and the run journal are kept`,
  'Output:',
  '  (terminal)            a progress bar on stderr, then the summary sentence',
  '  (otherwise, --json)   JSON lines: {"event": "progress" | "problem" | "row", …}; the last line is',
  '                        the envelope {"ok": true, "value": {"created", "updated", "unchanged", "failed", …}}',
  '                        or {"ok": false, "error": {"code", "message", "details": {counts…}}}',
].join('\n')

export const applyCommand: Command = {
  name: 'groups apply',
  usage: APPLY_USAGE,
  examples: [
    'embed-console groups apply customers.csv --profile Production --dry-run',
    'embed-console groups apply customers.csv --profile Production --rate 60',
    'EMBED_CONSOLE_TOKEN=… embed-console groups apply rows.jsonl --base-url https://api.example.com --json',
    'embed-console groups apply customers.csv --profile Production --resume',
    'embed-console groups apply customers.csv --profile Production --fetch',
  ],
  exitCodes: [
    [0, 'every row succeeded (or, with --dry-run, the file is valid)'],
    [
      1,
      'a row failed or its outcome is unknown (each is listed), the run paused or was stopped (resume it with --resume), or another process is sending it',
    ],
    [2, 'bad usage, or an invalid file (each problem is listed by line and column)'],
  ],
  // The runner (the database, the HTTP client, the bulk modules) loads only when a file is applied.
  run: async (argv, io) => (await import('./groups-apply-command')).runGroupsApply(argv, io),
}
