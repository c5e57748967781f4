import { spawn } from 'node:child_process'
import { parseArgs } from 'node:util'
import { createAppServices } from '../app-services'
import { defaultDataDir } from '../data-dir'
import { startWebServer } from '../web/web-server'
import { RENDERER_DIR } from './paths'
import { serveUntilStopped, UsageError, type CliIo, type Command } from './usage'

export function parsePort(value: string | undefined): number {
  if (value === undefined) return 0
  const port = Number(value)
  if (!/^\d+$/.test(value) || port > 65535) throw new UsageError(`--port takes a number from 0 to 65535, not "${value}".`)
  return port
}

function openInBrowser(url: string): void {
  const [command, args] =
    process.platform === 'darwin' ? ['open', [url]] : process.platform === 'win32' ? ['cmd', ['/c', 'start', '', url]] : ['xdg-open', [url]]
  const child = spawn(command as string, args as string[], { stdio: 'ignore', detached: true })
  child.on('error', () => {})
  child.unref()
}

/** Runs browser mode until SIGINT or SIGTERM; resolves with the exit code. */
export async function runBrowserMode(argv: string[], io: CliIo): Promise<number> {
  const { values } = parseArgs({
    args: argv,
    options: {
      port: { type: 'string' },
      'data-dir': { type: 'string' },
      'no-open': { type: 'boolean', default: false },
    },
    strict: true,
  })
  const port = parsePort(values.port)
  const dataDir = values['data-dir'] ?? defaultDataDir(io.env)
  const services = await createAppServices({ dataDir, transport: 'browser', log: (line) => io.stderr(line) })
  const server = await startWebServer({ services, rendererDir: RENDERER_DIR, port })
  io.stdout(`Embed Console is running at ${server.url}`)
  if (!values['no-open']) openInBrowser(server.url)

  return serveUntilStopped(async () => {
    await server.close()
    await services.close()
  })
}

export const webCommand: Command = {
  name: 'web',
  usage: 'embed-console web [--port N] [--data-dir DIR] [--no-open]',
  examples: ['embed-console web', 'embed-console web --port 8080 --no-open --data-dir ./embed-data'],
  exitCodes: [
    [0, 'stopped with Ctrl+C (or SIGTERM)'],
    [1, 'could not start: the data folder cannot be written, the port is taken'],
    [2, 'bad usage'],
  ],
  run: runBrowserMode,
}
