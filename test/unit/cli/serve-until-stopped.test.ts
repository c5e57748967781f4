import { describe, expect, it } from 'vitest'
import { serveUntilStopped } from '../../../src-main/cli/usage'

describe('a command that serves until stopped', () => {
  it('shuts down once however often it is signalled, keeping its handlers until done, then leaves none', async () => {
    const before = { SIGINT: process.listenerCount('SIGINT'), SIGTERM: process.listenerCount('SIGTERM') }
    let shutdowns = 0
    let finish!: () => void
    const stopped = serveUntilStopped(() => {
      shutdowns++
      return new Promise<void>((done) => (finish = done))
    })
    process.emit('SIGTERM', 'SIGTERM')
    // Repeated while the shutdown runs: were the handlers gone, a real signal would kill the
    // process by its default action here.
    expect(process.listenerCount('SIGTERM')).toBe(before.SIGTERM + 1)
    expect(process.listenerCount('SIGINT')).toBe(before.SIGINT + 1)
    process.emit('SIGTERM', 'SIGTERM')
    process.emit('SIGINT', 'SIGINT')
    expect(shutdowns).toBe(1)
    finish()
    expect(await stopped).toBe(0)
    expect({ SIGINT: process.listenerCount('SIGINT'), SIGTERM: process.listenerCount('SIGTERM') }).toEqual(before)
  })
})
