/** A command-line mistake: printed as one sentence with a pointer to --help, exit code 2. */
export class UsageError extends Error {
  override name = 'UsageError'
}

export interface CliIo {
  stdout: (text: string) => void
  stderr: (text: string) => void
  stdin: () => Promise<string>
  env: NodeJS.ProcessEnv
  /** Standard error when it is a terminal: for a progress bar drawn in place. */
  tty?: { write(text: string): void; columns: number }
}

export interface Command {
  name: string
  summary: string
  usage: string
  /** A subcommand's own usage, when it has one (`groups apply --help`). */
  usageFor?(argv: string[]): string | undefined
  /** Resolves to the exit code; a command that serves (web, sandbox) resolves when it stops. */
  run(argv: string[], io: CliIo): Promise<number>
}

/**
 * For commands that serve until stopped: on Ctrl+C (SIGINT) or SIGTERM, runs `shutdown` once and
 * resolves with exit code 0, so servers close their sockets and files are flushed before exit.
 */
export function serveUntilStopped(shutdown: () => Promise<void>): Promise<number> {
  return new Promise((resolve) => {
    const stop = () => {
      process.off('SIGINT', stop)
      process.off('SIGTERM', stop)
      void shutdown().then(() => resolve(0))
    }
    process.on('SIGINT', stop)
    process.on('SIGTERM', stop)
  })
}
