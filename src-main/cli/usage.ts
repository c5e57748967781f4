/** A command-line mistake: printed as one sentence with a pointer to --help, exit code 2. */
export class UsageError extends Error {
  override name = 'UsageError'
}

export interface CliIo {
  stdout: (text: string) => void
  stderr: (text: string) => void
  stdin: () => Promise<string>
  env: NodeJS.ProcessEnv
}

export interface Command {
  name: string
  summary: string
  usage: string
  /** Resolves to the exit code; a command that serves (web, sandbox) resolves when it stops. */
  run(argv: string[], io: CliIo): Promise<number>
}
