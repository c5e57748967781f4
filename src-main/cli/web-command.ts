import { spawn } from 'node:child_process'
import { rm } from 'node:fs/promises'
import { join } from 'node:path'
import { pathToFileURL } from 'node:url'
import { parseArgs } from 'node:util'
import { createAppServices } from '../app-services'
import { defaultDataDir } from '../data-dir'
import { writeFileAtomically } from '../storage/atomic-write'
import { askForNewLink, NEW_LINK_SOCKET, serveNewLinks } from '../web/new-link-socket'
import { startWebServer } from '../web/web-server'
import { RENDERER_DIR } from './paths'
import { type CliIo, type Command, serveUntilStopped, UsageError } from './usage'

export function parsePort(value: string | undefined): number {
  if (value === undefined) return 0
  const port = Number(value)
  if (!/^\d+$/.test(value) || port > 65535) throw new UsageError(`--port takes a number from 0 to 65535, not "${value}".`)
  return port
}

/** Where the browser is sent to the address, key included: owner-only, in the owner-only data folder. */
export const REDIRECT_FILE = 'open-in-browser.html'

const escapeHtml = (text: string) => text.replace(/[&<>"']/g, (char) => `&#${char.charCodeAt(0)};`)

/**
 * Opens the browser on a redirect page in the data folder rather than on the address itself, as
 * Jupyter does: the opener's command line (which every user of the machine sees in the process
 * list) names only the file; the key is in the file, which only this user can read.
 */
async function openInBrowser(url: string, dataDir: string): Promise<string> {
  const page = join(dataDir, REDIRECT_FILE)
  const href = escapeHtml(url)
  await writeFileAtomically(
    page,
    `<!doctype html>\n<meta charset="utf-8">\n<meta http-equiv="refresh" content="0;url=${href}">\n<title>Embed Console</title>\n<p>Opening <a href="${href}">Embed Console</a>…</p>\n`,
    { mode: 0o600, forceMode: true },
  )
  const target = pathToFileURL(page).href
  const [command, args] =
    process.platform === 'darwin'
      ? ['open', [target]]
      : process.platform === 'win32'
        ? ['cmd', ['/c', 'start', '', target]]
        : ['xdg-open', [target]]
  const child = spawn(command as string, args as string[], { stdio: 'ignore', detached: true })
  child.on('error', () => {})
  child.unref()
  return page
}

/** Runs browser mode until SIGINT or SIGTERM; resolves with the exit code. */
export async function runBrowserMode(argv: string[], io: CliIo): Promise<number> {
  const { values } = parseArgs({
    args: argv,
    options: {
      port: { type: 'string' },
      'data-dir': { type: 'string' },
      'no-open': { type: 'boolean', default: false },
      'new-link': { type: 'boolean', default: false },
    },
    strict: true,
  })
  const port = parsePort(values.port)
  const dataDir = values['data-dir'] ?? defaultDataDir(io.env)
  if (values['new-link']) {
    if (values.port !== undefined) throw new UsageError('--new-link asks the app already running: it takes no --port.')
    let link: string
    try {
      link = await askForNewLink(dataDir)
    } catch (error) {
      io.stderr((error as Error).message)
      return 1
    }
    io.stdout(`Another session of Embed Console (the address opens one browser, once, within 10 minutes): ${link}`)
    if (!values['no-open']) await openInBrowser(link, dataDir)
    return 0
  }
  const services = await createAppServices({ dataDir, transport: 'browser', log: (line) => io.stderr(line) })
  const redirect = join(dataDir, REDIRECT_FILE)
  // The key is spent once: the page that carried it has nothing left to open.
  const forgetRedirect = () => void rm(redirect, { force: true })
  const server = await startWebServer({ services, rendererDir: RENDERER_DIR, port, onKeySpent: forgetRedirect })
  // The terminal is the one place the address is printed; the browser gets it through a file.
  io.stdout(`Embed Console is running at ${server.url}`)
  if (!values['no-open']) await openInBrowser(server.url, dataDir)
  // Another browser, or a tab closed: `embed-console web --new-link` asks this process for an address.
  const links = await serveNewLinks(dataDir, () => server.newLink())
  if ('unavailable' in links) io.stderr(links.unavailable)
  else io.stderr('For another browser, or after closing the tab: `embed-console web --new-link` prints a new address.')

  return serveUntilStopped(async () => {
    forgetRedirect()
    if (!('unavailable' in links)) {
      await links.close()
      await rm(join(dataDir, NEW_LINK_SOCKET), { force: true })
    }
    await server.close()
    await services.close()
  })
}

export const webCommand: Command = {
  name: 'web',
  usage: 'embed-console web [--port N] [--data-dir DIR] [--no-open] | web --new-link [--data-dir DIR] [--no-open]',
  examples: [
    'embed-console web',
    'embed-console web --port 8080 --no-open --data-dir ./embed-data',
    'embed-console web --new-link    # another browser, or a closed tab: a new address from the app already running',
  ],
  exitCodes: [
    [0, 'stopped with Ctrl+C (or SIGTERM); with --new-link, the address was printed'],
    [1, 'could not start: the data folder cannot be written, the port is taken; with --new-link, no app runs on the folder'],
    [2, 'bad usage'],
  ],
  run: runBrowserMode,
}
