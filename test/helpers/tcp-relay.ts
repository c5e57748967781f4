import { type AddressInfo, connect, createServer, type Socket } from 'node:net'

/**
 * A loopback TCP relay to another port: one machine's own way to a shared server (the team's
 * Postgres), which a test can cut (every connection dropped, new ones refused: a machine cut
 * off from the network) and restore, while other machines reach the server directly.
 */
export interface TcpRelay {
  port: number
  cut(): void
  restore(): void
  close(): Promise<void>
}

export async function startTcpRelay(targetPort: number): Promise<TcpRelay> {
  let open = true
  const sockets = new Set<Socket>()
  const track = (socket: Socket) => {
    sockets.add(socket)
    socket.once('close', () => sockets.delete(socket))
  }
  const server = createServer((client) => {
    track(client)
    if (!open) return client.destroy()
    const upstream = connect(targetPort, '127.0.0.1')
    track(upstream)
    const end = () => {
      client.destroy()
      upstream.destroy()
    }
    for (const socket of [client, upstream]) socket.once('error', end).once('close', end)
    client.pipe(upstream).pipe(client)
  })
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve))
  const cutAll = () => {
    for (const socket of sockets) socket.destroy()
  }
  return {
    port: (server.address() as AddressInfo).port,
    cut() {
      open = false
      cutAll()
    },
    restore() {
      open = true
    },
    close: () =>
      new Promise<void>((resolve) => {
        cutAll()
        server.close(() => resolve())
      }),
  }
}
