import { parseArgs } from 'node:util'
import { messageOf } from '../../src-shared/ipc/error-message'
import type { AppError } from '../../src-shared/ipc/result'
import type { Profile } from '../../src-shared/profiles/schemas'

/** The environment variable `--base-url` calls read the API token from: never a flag, since flags show in process lists. */
export const TOKEN_ENV = 'EMBED_CONSOLE_TOKEN'

/** A command-line mistake: printed as one sentence with a pointer to --help, exit code 2. */
export class UsageError extends Error {
  override name = 'UsageError'
}

export interface CliIo {
  stdout: (text: string) => void
  stderr: (text: string) => void
  stdin: () => Promise<string>
  env: NodeJS.ProcessEnv
  /** Asks on the terminal without echoing the answer (a secret); absent when standard input is not a terminal. */
  prompt?: (question: string) => Promise<string>
  /** Standard error when it is a terminal: for a progress bar drawn in place. */
  tty?: { write(text: string): void; columns: number }
  /**
   * Calls `listener` once nobody reads standard output any more (`| head` exited): what is written
   * after is dropped. A command that would go on working for a reader pauses instead. Returns the
   * way to stop listening.
   */
  onStdoutClosed?: (listener: () => void) => () => void
}

export interface Command {
  name: string
  usage: string
  /** Whole command lines, shown under "Examples:" in the command's --help. */
  examples: string[]
  /** Every exit code the command can end with, and what it means. */
  exitCodes: Array<[code: number, meaning: string]>
  /** A subcommand with a help of its own (`groups apply --help`). */
  subcommand?(argv: string[]): { summary: string; command: Command } | undefined
  /** Resolves to the exit code; a command that serves (web, sandbox) resolves when it stops. */
  run(argv: string[], io: CliIo): Promise<number>
}

/**
 * The one JSON envelope of `--json`, the same as the app's calls answer with: success and
 * failure alike, usage mistakes included, so a script reads one shape from stdout.
 */
export type JsonEnvelope<T> = { ok: true; value: T } | { ok: false; error: AppError }

export const printJson = <T>(io: CliIo, envelope: JsonEnvelope<T>) => io.stdout(JSON.stringify(envelope, null, 2))

export const usageFailure = (message: string, usage: string): JsonEnvelope<never> => ({
  ok: false,
  error: { code: 'invalid_input', message, details: { usage } },
})

/**
 * For commands that serve until stopped: on Ctrl+C (SIGINT) or SIGTERM, runs `shutdown` once and
 * resolves with exit code 0, so servers close their sockets and files are flushed before exit.
 */
export function serveUntilStopped(shutdown: () => Promise<void>): Promise<number> {
  return new Promise((resolve) => {
    let stopping = false
    // A signal repeated while shutting down (a supervisor, a second Ctrl+C) must not kill the
    // process half-way through: the handlers stay until the shutdown is done.
    const stop = () => {
      if (stopping) return
      stopping = true
      void shutdown().then(() => {
        process.off('SIGINT', stop)
        process.off('SIGTERM', stop)
        resolve(0)
      })
    }
    process.on('SIGINT', stop)
    process.on('SIGTERM', stop)
  })
}

/** `--timeout SECONDS` as milliseconds, or undefined when not given. */
export function parseTimeoutSeconds(value: string | undefined): number | undefined {
  if (value === undefined) return undefined
  const seconds = Number(value)
  if (!Number.isFinite(seconds) || seconds <= 0 || seconds > 300) throw new UsageError('--timeout takes a number of seconds from 0 to 300.')
  return seconds * 1000
}

/** `--profile NAME`: a saved profile by its id or its name, or a usage mistake that says so. */
export function profileNamed(profiles: { list(): Profile[] }, nameOrId: string): Profile {
  const profile = profiles.list().find((candidate) => candidate.id === nameOrId || candidate.name === nameOrId)
  if (!profile) throw new UsageError(`There is no saved profile named “${nameOrId}”.`)
  return profile
}

/**
 * After a command's services closed: calls recorded here that the team's audit log does not have
 * yet (the team database away) are said on stderr, so a script's operator knows they wait.
 */
export function reportLeftBehind(team: { leftBehind(): { waiting: number; error: string | null } }, io: CliIo): void {
  const { waiting, error } = team.leftBehind()
  if (waiting === 0) return
  io.stderr(
    `${waiting === 1 ? '1 call recorded here has' : `${waiting} calls recorded here have`} not reached the team’s audit log yet${error ? ` (${error.replace(/\.$/, '')})` : ''}: the next command (or the app) sends ${waiting === 1 ? 'it' : 'them'}. \`embed-console team status\` shows the backlog.`,
  )
}

/**
 * Before a command works on a joined folder's profiles and groups: the team's changes first (a
 * profile shared since, the catalog, a colleague's rotations). Away, it says so and goes on with
 * what the folder has.
 */
export async function pullFirst(team: { joined(): boolean; pull(): Promise<unknown> }, io: CliIo): Promise<void> {
  if (!team.joined()) return
  await team
    .pull()
    .catch((error: unknown) =>
      io.stderr(
        `Warning: the team’s changes could not be pulled first (${messageOf(error).replace(/\.$/, '')}): going on with what this folder has.`,
      ),
    )
}

/** `[--data-dir DIR] [--json]`: the options of a command that reads or changes a data folder, and nothing more. */
export const folderOptions = (argv: string[]): { 'data-dir'?: string; json: boolean } =>
  parseArgs({ args: argv, options: { 'data-dir': { type: 'string' }, json: { type: 'boolean', default: false } }, strict: true }).values
