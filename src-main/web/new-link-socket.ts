import { chmod, rm } from 'node:fs/promises'
import { createConnection, createServer, type Server } from 'node:net'
import { join } from 'node:path'
import { AppErrorException } from '../../src-shared/ipc/result'

/*
 * How `embed-console web --new-link` gets another one-use address from the browser-mode app that
 * is already running on a data folder, for a second browser or a tab closed, without a restart:
 * it asks through a Unix socket in that owner-only folder (0700, the socket itself 0600), so only
 * the folder's owner can ask, and the key travels between the two processes only, never on a
 * command line (which every user of the machine can read in the process list).
 */

/** The socket, in the data folder. */
export const NEW_LINK_SOCKET = 'browser-mode.sock'

const ASK = 'new-link\n'
const ANSWER_TIMEOUT_MS = 5_000

const socketPath = (dataDir: string) => join(dataDir, NEW_LINK_SOCKET)

/** Windows has no Unix sockets in folders (its pipes are not files the folder's rights guard). */
const unsupported = () =>
  process.platform === 'win32'
    ? 'A new address for a running browser-mode app is not offered on Windows yet: stop `embed-console web` and start it again.'
    : null

/**
 * Listens for `web --new-link` on the data folder's socket, answering each with `newLink()`.
 * A socket left by a process that died is replaced; one another running app answers on is left
 * to it (null: this app offers no new addresses, with why).
 */
export async function serveNewLinks(dataDir: string, newLink: () => string): Promise<{ close(): Promise<void> } | { unavailable: string }> {
  const why = unsupported()
  if (why) return { unavailable: why }
  const path = socketPath(dataDir)
  if (await answered(path)) return { unavailable: 'Another browser-mode app on this data folder gives new addresses: ask it.' }
  await rm(path, { force: true })
  const server: Server = createServer((socket) => {
    socket.setTimeout(ANSWER_TIMEOUT_MS, () => socket.destroy())
    let asked = ''
    socket.on('data', (chunk: Buffer) => {
      asked += chunk.toString('utf8')
      if (asked.length > ASK.length) return socket.destroy()
      if (asked === ASK) socket.end(`${newLink()}\n`)
    })
    socket.on('error', () => {})
  })
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject)
    server.listen(path, () => {
      server.off('error', reject)
      resolve()
    })
  })
  await chmod(path, 0o600)
  return {
    close: () =>
      new Promise<void>((resolve) => {
        server.close(() => resolve())
      }),
  }
}

/** Whether an app listens on the socket (a file left by one that died does not). */
function answered(path: string): Promise<boolean> {
  return new Promise((resolve) => {
    const socket = createConnection(path)
    socket.on('connect', () => (socket.destroy(), resolve(true)))
    socket.on('error', () => resolve(false))
  })
}

function askOn(path: string): Promise<string> {
  return new Promise((resolve, reject) => {
    const socket = createConnection(path)
    let answer = ''
    socket.setTimeout(ANSWER_TIMEOUT_MS, () => socket.destroy(new Error('no answer')))
    socket.on('connect', () => socket.write(ASK))
    socket.on('data', (chunk: Buffer) => (answer += chunk.toString('utf8')))
    socket.on('end', () => (answer.endsWith('\n') ? resolve(answer.trim()) : reject(new Error('no address in the answer'))))
    socket.on('error', reject)
  })
}

/** A new one-use address from the browser-mode app running on this data folder, or a refusal that says what to do. */
export async function askForNewLink(dataDir: string): Promise<string> {
  const why = unsupported()
  if (why) throw new AppErrorException('refused', why)
  try {
    const link = await askOn(socketPath(dataDir))
    if (!/^http:\/\/127\.0\.0\.1:\d+\/#key=[\w-]+$/.test(link)) throw new Error('not an address')
    return link
  } catch {
    throw new AppErrorException(
      'not_found',
      `No browser-mode app is running on ${dataDir}: start one with \`embed-console web\` (with --data-dir if it uses another folder).`,
    )
  }
}
