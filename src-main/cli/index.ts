import { createRequire } from 'node:module'
import type * as V8 from 'node:v8'
import pkg from '../../package.json'
import { messageOf } from '../../src-shared/ipc/error-message'
import { closeDispatchers, whenUndiciLoads } from '../user-api/dispatchers'
import { type CliIo, type Command, printJson, UsageError, usageFailure } from './usage'

/**
 * Every command, by name, with the sentence `--help` lists. A command's module (and what it
 * imports: zod, the database driver, the HTTP server) is loaded only when that command runs, so
 * `--version` or one API call from a script does not pay for the others.
 */
interface CommandEntry {
  name: string
  summary: string
  load(): Promise<Command>
}

const commands: CommandEntry[] = [
  {
    name: 'start',
    summary: 'Open the desktop app, or browser mode where the Electron runtime is not installed.',
    load: async () => (await import('./start-command')).startCommand,
  },
  {
    name: 'web',
    summary: 'Serve the app to your browser on 127.0.0.1 (browser mode).',
    load: async () => (await import('./web-command')).webCommand,
  },
  {
    name: 'sandbox',
    summary: 'Serve a local /api/user (the sandbox) on 127.0.0.1, with one API token per environment.',
    load: async () => (await import('./sandbox-command')).sandboxCommand,
  },
  {
    name: 'groups',
    summary: 'Get or create, update or rotate the token of a user group, or apply a file of them (groups apply), for scripts.',
    load: async () => (await import('./groups-command')).groupsCommand,
  },
  {
    name: 'profiles',
    summary: 'List the saved profiles, and enter your API token in one (from standard input or a prompt, never a flag).',
    load: async () => (await import('./profiles-command')).profilesCommand,
  },
  {
    name: 'doctor',
    summary: 'Say which proxy, CA and TLS version a call uses, and where it fails: DNS, TCP, proxy CONNECT, TLS, HTTP.',
    load: async () => (await import('./doctor-command')).doctorCommand,
  },
  {
    name: 'team',
    summary: 'Team mode: share one audit log and catalog on Postgres (migrate, add-operator, join, leave, status, activity).',
    load: async () => (await import('./team-command')).teamCommand,
  },
  {
    name: 'validate',
    summary: 'Check docs.json, site.json or mint.json files and their docs folder (for CI): exit 0 valid, 1 invalid, 2 unreadable.',
    load: async () => (await import('./validate-command')).validateCommand,
  },
  {
    name: 'convert',
    summary: 'Turn a mint.json into a docs.json Mintlify accepts, naming each setting it cannot carry.',
    load: async () => (await import('./convert-command')).convertCommand,
  },
  {
    name: 'openapi',
    summary: 'Print or write the OpenAPI 3.1 document of /api/user (for a docs site’s site.json "openapi").',
    load: async () => (await import('./openapi-command')).openApiCommand,
  },
]

function helpText(): string {
  const width = Math.max(...commands.map((command) => command.name.length))
  return [
    'Embed Console: user groups over the /api/user API, and the docs site’s site.json.',
    '',
    'Usage: embed-console <command> [options]',
    '',
    'Commands:',
    ...commands.map((command) => `  ${command.name.padEnd(width)}  ${command.summary}`),
    '',
    'Options:',
    '  --help, -h     Show this help, or a command’s with `embed-console <command> --help`.',
    '  --version, -v  Print the version.',
    '  --json         Usage mistakes too as {"ok": false, "error": …} on stdout.',
    '',
    'Exit codes: 0 done, 1 the work failed, 2 bad usage (each command’s --help says more).',
  ].join('\n')
}

export function commandHelp(summary: string, command: Command): string {
  return [
    summary,
    '',
    `Usage: ${command.usage}`,
    '',
    'Examples:',
    ...command.examples.map((example) => `  ${example}`),
    '',
    'Exit codes:',
    ...command.exitCodes.map(([code, meaning]) => `  ${code}  ${meaning}`),
  ].join('\n')
}

export async function main(argv: string[], io: CliIo): Promise<number> {
  const [first, ...rest] = argv
  const json = argv.includes('--json')
  const usageMistake = (message: string, usage: string): number => {
    if (json) printJson(io, usageFailure(message, usage))
    else io.stderr(`${message}\nUsage: ${usage}`)
    return 2
  }
  if (first === undefined || first === '--help' || first === '-h' || first === 'help') {
    io.stdout(helpText())
    return first === undefined ? 2 : 0
  }
  if (first === '--version' || first === '-v') {
    io.stdout(pkg.version)
    return 0
  }
  const entry = commands.find((candidate) => candidate.name === first)
  if (!entry)
    return usageMistake(`Unknown command "${first}". Run \`embed-console --help\` for the list.`, 'embed-console <command> [options]')
  const command = await entry.load()
  if (rest.includes('--help') || rest.includes('-h')) {
    const sub = command.subcommand?.(rest)
    io.stdout(commandHelp(sub?.summary ?? entry.summary, sub?.command ?? command))
    return 0
  }
  try {
    return await command.run(rest, io)
  } catch (error) {
    // parseArgs throws TypeErrors with ERR_PARSE_ARGS_* codes for unknown or malformed flags.
    const code = (error as { code?: string }).code
    if (error instanceof UsageError || code?.startsWith('ERR_PARSE_ARGS'))
      return usageMistake((error as Error).message, (command.subcommand?.(rest)?.command ?? command).usage.split('\n')[0]!)
    throw error
  }
}

/** A question on stderr whose answer is not echoed: the terminal's input is read with the output muted. */
async function promptHidden(question: string): Promise<string> {
  const { createInterface } = await import('node:readline')
  const { Writable } = await import('node:stream')
  let muted = false
  const output = new Writable({
    write(chunk: Buffer, _encoding, done) {
      if (!muted) process.stderr.write(chunk)
      done()
    },
  })
  const lines = createInterface({ input: process.stdin, output, terminal: true })
  return new Promise((resolve) => {
    lines.question(question, (answer) => {
      lines.close()
      process.stderr.write('\n')
      resolve(answer)
    })
    muted = true
  })
}

const readStdin = async (): Promise<string> => {
  const chunks: Buffer[] = []
  for await (const chunk of process.stdin) chunks.push(chunk as Buffer)
  return Buffer.concat(chunks).toString('utf8')
}

export async function runCli(): Promise<void> {
  // undici (loaded only for a call through a proxy) parses HTTP with WebAssembly, which V8
  // compiles a second time, optimised, in the background; Node waits for that before it exits:
  // 60 to 180 ms more for every such call. The baseline compiler's code parses answers of a few
  // kB as fast. node:v8 is loaded only then: about 4 ms of every other call.
  whenUndiciLoads(() => (createRequire(import.meta.url)('node:v8') as typeof V8).setFlagsFromString('--liftoff-only'))
  // A reader that went away (`embed-console … | head`) is not an error of ours: what would have
  // gone to it is dropped, and a command that would go on for it is told, instead of a stack of
  // an unhandled EPIPE.
  const closed = { stdout: false, stderr: false }
  const stdoutClosedListeners = new Set<() => void>()
  process.stdout.on('error', () => {
    if (closed.stdout) return
    closed.stdout = true
    for (const listener of stdoutClosedListeners) listener()
  })
  process.stderr.on('error', () => (closed.stderr = true))
  const io: CliIo = {
    stdout: (text) => {
      if (!closed.stdout) process.stdout.write(`${text}\n`)
    },
    stderr: (text) => {
      if (!closed.stderr) process.stderr.write(`${text}\n`)
    },
    onStdoutClosed: (listener) => {
      stdoutClosedListeners.add(listener)
      return () => stdoutClosedListeners.delete(listener)
    },
    stdin: readStdin,
    env: process.env,
    // Standard input is looked at only by a command that may ask: its stream, made at the first
    // look, cost every other command (a --base-url call) 2 to 4 ms.
    get prompt() {
      return process.stdin.isTTY ? promptHidden : undefined
    },
    ...(process.stderr.isTTY
      ? { tty: { write: (text: string) => process.stderr.write(text), columns: process.stderr.columns ?? 80 } }
      : {}),
  }
  try {
    process.exitCode = await main(process.argv.slice(2), io)
  } catch (error) {
    io.stderr(`Embed Console stopped on an unexpected error: ${messageOf(error)}`)
    process.exitCode = 1
  } finally {
    // Kept-alive connections to the API would hold the process open after its answer.
    await closeDispatchers()
  }
}
