import pkg from '../../package.json'
import { groupsCommand } from './groups-command'
import { openApiCommand } from './openapi-command'
import { sandboxCommand } from './sandbox-command'
import { startCommand } from './start-command'
import { UsageError, type CliIo, type Command } from './usage'
import { validateCommand } from './validate-command'
import { webCommand } from './web-command'

const commands: Command[] = [startCommand, webCommand, sandboxCommand, groupsCommand, validateCommand, openApiCommand]

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
  ].join('\n')
}

export async function main(argv: string[], io: CliIo): Promise<number> {
  const [first, ...rest] = argv
  if (first === undefined || first === '--help' || first === '-h' || first === 'help') {
    io.stdout(helpText())
    return first === undefined ? 2 : 0
  }
  if (first === '--version' || first === '-v') {
    io.stdout(pkg.version)
    return 0
  }
  const command = commands.find((candidate) => candidate.name === first)
  if (!command) {
    io.stderr(`Unknown command "${first}". Run \`embed-console --help\` for the list.`)
    return 2
  }
  if (rest.includes('--help') || rest.includes('-h')) {
    const own = command.usageFor?.(rest)
    io.stdout(own ? `Usage: ${own}` : `${command.summary}\n\nUsage: ${command.usage}`)
    return 0
  }
  try {
    return await command.run(rest, io)
  } catch (error) {
    // parseArgs throws TypeErrors with ERR_PARSE_ARGS_* codes for unknown or malformed flags.
    const code = (error as { code?: string }).code
    if (error instanceof UsageError || code?.startsWith('ERR_PARSE_ARGS')) {
      io.stderr(`${(error as Error).message}\nUsage: ${command.usageFor?.(rest)?.split('\n')[0] ?? command.usage}`)
      return 2
    }
    throw error
  }
}

const readStdin = async (): Promise<string> => {
  const chunks: Buffer[] = []
  for await (const chunk of process.stdin) chunks.push(chunk as Buffer)
  return Buffer.concat(chunks).toString('utf8')
}

export async function runCli(): Promise<void> {
  const io: CliIo = {
    stdout: (text) => process.stdout.write(`${text}\n`),
    stderr: (text) => process.stderr.write(`${text}\n`),
    stdin: readStdin,
    env: process.env,
    ...(process.stderr.isTTY ? { tty: { write: (text: string) => process.stderr.write(text), columns: process.stderr.columns ?? 80 } } : {}),
  }
  try {
    process.exitCode = await main(process.argv.slice(2), io)
  } catch (error) {
    io.stderr(`Embed Console stopped on an unexpected error: ${error instanceof Error ? error.message : String(error)}`)
    process.exitCode = 1
  }
}
