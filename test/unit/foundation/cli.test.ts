import { spawn, spawnSync } from 'node:child_process'
import { mkdtemp, readFile, stat, writeFile } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { pathToFileURL } from 'node:url'
import { describe, expect, it } from 'vitest'
import pkg from '../../../package.json'
import { main } from '../../../src-main/cli/index'
import type { CliIo } from '../../../src-main/cli/usage'

function captureIo(): CliIo & { out: string[]; err: string[] } {
  const out: string[] = []
  const err: string[] = []
  return { out, err, stdout: (text) => out.push(text), stderr: (text) => err.push(text), stdin: async () => '', env: {} }
}

describe('embed-console CLI', () => {
  it('prints its version', async () => {
    const io = captureIo()
    expect(await main(['--version'], io)).toBe(0)
    expect(io.out).toEqual([pkg.version])
  })

  it('lists its commands in --help', async () => {
    const io = captureIo()
    expect(await main(['--help'], io)).toBe(0)
    expect(io.out.join('\n')).toMatch(/web\s+Serve the app/)
  })

  it('gives every command’s --help its usage, examples and exit codes', async () => {
    for (const command of ['start', 'web', 'sandbox', 'groups', 'doctor', 'validate', 'openapi']) {
      const io = captureIo()
      expect(await main([command, '--help'], io), command).toBe(0)
      const help = io.out.join('\n')
      expect(help, command).toMatch(new RegExp(`Usage: embed-console ${command}`))
      expect(help, command).toMatch(/\nExamples:\n {2}embed-console|\nExamples:\n {2}\S+=… embed-console/)
      expect(help, command).toMatch(/\nExit codes:\n {2}0 {2}\S.*\n {2}1 {2}\S.*\n {2}2 {2}\S/)
    }
  })

  it('answers an unknown command or a bad flag with one sentence and exit 2', async () => {
    const unknown = captureIo()
    expect(await main(['frobnicate'], unknown)).toBe(2)
    expect(unknown.err.join('\n')).toContain('Unknown command "frobnicate"')

    const badPort = captureIo()
    expect(await main(['web', '--port', 'eighty'], badPort)).toBe(2)
    expect(badPort.err.join('\n')).toContain('--port takes a number')

    const unknownFlag = captureIo()
    expect(await main(['web', '--colour'], unknownFlag)).toBe(2)
    expect(unknownFlag.err.join('\n')).toContain('Usage: embed-console web')
  })

  it('runs browser mode from the built bin, prints one URL line, and stops cleanly on Ctrl+C', async () => {
    const dataDir = await mkdtemp(join(tmpdir(), 'ec-cli-'))
    const child = spawn(process.execPath, ['bin/embed-console.js', 'web', '--port', '0', '--no-open', '--data-dir', dataDir], {
      stdio: ['ignore', 'pipe', 'pipe'],
    })
    let stdout = ''
    const line = await new Promise<string>((resolve, reject) => {
      child.stdout.on('data', (chunk: Buffer) => {
        stdout += chunk.toString('utf8')
        if (stdout.includes('\n')) resolve(stdout.trim())
      })
      child.on('exit', (code) => reject(new Error(`exited early with ${code}`)))
    })
    expect(line).toMatch(/^Embed Console is running at http:\/\/127\.0\.0\.1:\d+\/#key=[\w-]{32}$/)

    const url = new URL(line.replace('Embed Console is running at ', ''))
    const key = url.hash.replace('#key=', '')
    const session = await fetch(new URL('/session', url), { method: 'POST', body: JSON.stringify({ key }) })
    const cookie = session.headers.getSetCookie()[0]!.split(';')[0]!
    const response = await fetch(new URL('/ipc/app.info', url), { method: 'POST', headers: { cookie }, body: '{}' })
    expect(await response.json()).toMatchObject({ ok: true, value: { transport: 'browser', dataDir } })

    const exitCode = await new Promise<number | null>((resolve) => {
      child.on('exit', (code) => resolve(code))
      child.kill('SIGINT')
    })
    expect(exitCode).toBe(0)
  })

  it('opens the browser on an owner-only redirect file: the key is never on a command line, and the file goes once the key is spent', async () => {
    const dataDir = await mkdtemp(join(tmpdir(), 'ec-cli-open-'))
    // The system's opener, replaced by one that writes down the command line it was given.
    const bin = await mkdtemp(join(tmpdir(), 'ec-opener-'))
    const argsFile = join(bin, 'args.txt')
    for (const name of ['xdg-open', 'open']) {
      await writeFile(join(bin, name), `#!/bin/sh\nprintf '%s\\n' "$@" > '${argsFile}'\n`, { mode: 0o755 })
    }
    const child = spawn(process.execPath, ['bin/embed-console.js', 'web', '--port', '0', '--data-dir', dataDir], {
      stdio: ['ignore', 'pipe', 'pipe'],
      env: { ...process.env, PATH: `${bin}:${process.env.PATH}` },
    })
    let stdout = ''
    const line = await new Promise<string>((resolve, reject) => {
      child.stdout.on('data', (chunk: Buffer) => {
        stdout += chunk.toString('utf8')
        if (stdout.includes('\n')) resolve(stdout.trim())
      })
      child.on('exit', (code) => reject(new Error(`exited early with ${code}`)))
    })
    const url = new URL(line.replace('Embed Console is running at ', ''))
    const key = url.hash.replace('#key=', '')
    let opened = ''
    for (let tries = 0; tries < 100 && !opened; tries++) {
      opened = await readFile(argsFile, 'utf8').catch(() => '')
      if (!opened) await new Promise((next) => setTimeout(next, 20))
    }
    const redirect = join(dataDir, 'open-in-browser.html')
    expect(opened.trim()).toBe(pathToFileURL(redirect).href)
    expect(opened).not.toContain(key)
    expect((await stat(redirect)).mode & 0o777).toBe(0o600)
    expect(await readFile(redirect, 'utf8')).toContain(`url=${url.href}`)

    const session = await fetch(new URL('/session', url), { method: 'POST', body: JSON.stringify({ key }) })
    expect(session.ok).toBe(true)
    // Removed as the key is spent (asynchronously: a moment later at most).
    for (
      let tries = 0;
      tries < 50 &&
      (await stat(redirect).then(
        () => true,
        () => false,
      ));
      tries++
    )
      await new Promise((next) => setTimeout(next, 20))
    await expect(stat(redirect)).rejects.toThrow(/ENOENT/)
    const exitCode = await new Promise<number | null>((resolve) => {
      child.on('exit', (code) => resolve(code))
      child.kill('SIGINT')
    })
    expect(exitCode).toBe(0)
  })
  it('gives another browser a new one-use address from the app already running (--new-link), through an owner-only socket', async () => {
    const dataDir = await mkdtemp(join(tmpdir(), 'ec-cli-link-'))
    const noneYet = spawnSync(process.execPath, ['bin/embed-console.js', 'web', '--new-link', '--no-open', '--data-dir', dataDir], {
      encoding: 'utf8',
    })
    expect(noneYet.status).toBe(1)
    expect(noneYet.stderr.trim()).toBe(
      `No browser-mode app is running on ${dataDir}: start one with \`embed-console web\` (with --data-dir if it uses another folder).`,
    )

    const child = spawn(process.execPath, ['bin/embed-console.js', 'web', '--port', '0', '--no-open', '--data-dir', dataDir], {
      stdio: ['ignore', 'pipe', 'pipe'],
    })
    let stderr = ''
    child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString('utf8')))
    const first = await new Promise<URL>((resolve, reject) => {
      let stdout = ''
      child.stdout.on('data', (chunk: Buffer) => {
        stdout += chunk.toString('utf8')
        const match = /running at (\S+)/.exec(stdout)
        if (match) resolve(new URL(match[1]!))
      })
      child.on('exit', (code) => reject(new Error(`exited early with ${code}`)))
    })
    const socket = join(dataDir, 'browser-mode.sock')
    for (let tries = 0; tries < 100 && !stderr.includes('--new-link'); tries++) await new Promise((next) => setTimeout(next, 20))
    expect((await stat(socket)).mode & 0o777).toBe(0o600)

    const asked = spawnSync(process.execPath, ['bin/embed-console.js', 'web', '--new-link', '--no-open', '--data-dir', dataDir], {
      encoding: 'utf8',
    })
    expect(asked.status).toBe(0)
    const match =
      /^Another session of Embed Console \(the address opens one browser, once, within 10 minutes\): (http:\/\/127\.0\.0\.1:(\d+)\/#key=([\w-]{32}))$/.exec(
        asked.stdout.trim(),
      )
    expect(match).not.toBeNull()
    expect(Number(match![2])).toBe(Number(first.port))
    const key = match![3]!
    expect(key).not.toBe(first.hash.replace('#key=', ''))

    // Two browsers: the printed address and the new one each open a session of their own, once.
    const trade = (given: string) => fetch(new URL('/session', first), { method: 'POST', body: JSON.stringify({ key: given }) })
    const sessions = [await trade(first.hash.replace('#key=', '')), await trade(key)]
    for (const session of sessions) {
      expect(session.status).toBe(200)
      const cookie = session.headers.getSetCookie()[0]!.split(';')[0]!
      const info = await fetch(new URL('/ipc/app.info', first), { method: 'POST', headers: { cookie }, body: '{}' })
      expect(await info.json()).toMatchObject({ ok: true, value: { transport: 'browser', dataDir } })
    }
    const again = await trade(key)
    expect(again.status).toBe(401)
    expect(await again.json()).toMatchObject({ error: { details: { keyUsed: true }, message: expect.stringContaining('--new-link') } })

    const exitCode = await new Promise<number | null>((resolve) => {
      child.on('exit', (code) => resolve(code))
      child.kill('SIGINT')
    })
    expect(exitCode).toBe(0)
    await expect(stat(socket)).rejects.toThrow(/ENOENT/)
  })
})
