import { spawnSync } from 'node:child_process'
import { chmod, mkdir, mkdtemp, readdir, readFile, rm, stat, writeFile } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { validate } from '@readme/openapi-parser'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { main } from '../../../src-main/cli/index'
import type { CliIo } from '../../../src-main/cli/usage'
import { buildOpenApiDocument, openApiFileText } from '../../../src-shared/user-api/openapi'

function captureIo() {
  const out: string[] = []
  const err: string[] = []
  const io: CliIo = { stdout: (text) => out.push(text), stderr: (text) => err.push(text), stdin: async () => '', env: {} }
  return { io, out, err }
}

let dir: string
beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), 'ec-openapi-cli-'))
})
afterAll(() => rm(dir, { recursive: true, force: true }))

describe('embed-console openapi', () => {
  it('writes a valid OpenAPI 3.1 file with --out, pointed at --server', async () => {
    const file = join(dir, 'openapi.json')
    const { io, out, err } = captureIo()
    expect(await main(['openapi', '--out', file, '--server', 'https://api.example.com/tenant/'], io)).toBe(0)
    expect(err).toEqual([])
    expect(out).toEqual([`Wrote the OpenAPI 3.1 document of /api/user to ${file}.`])

    const written = JSON.parse(await readFile(file, 'utf8'))
    expect(written.servers).toEqual([{ url: 'https://api.example.com/tenant' }])
    expect(written).toEqual(buildOpenApiDocument({ serverUrl: 'https://api.example.com/tenant' }))
    const result = await validate(written)
    expect(result.valid).toBe(true)
  })

  it.each([
    ['https://help.example.com/api', { url: 'https://help.example.com/api' }],
    ['support@example.com', { email: 'support@example.com' }],
  ])('names the API’s support with --contact %s', async (contact, expected) => {
    const { io, out } = captureIo()
    expect(await main(['openapi', '--contact', contact], io)).toBe(0)
    expect(JSON.parse(out.join('\n')).info.contact).toEqual({ name: 'API support', ...expected })
  })

  it('prints the document to stdout without --out', async () => {
    const { io, out } = captureIo()
    expect(await main(['openapi'], io)).toBe(0)
    expect(out).toHaveLength(1)
    expect(`${out[0]}\n`).toBe(openApiFileText(buildOpenApiDocument()))
  })

  it.each([
    [['--server', 'ftp://example.com'], '--server: The base URL must start with https:// (or http://); "ftp:" addresses are not accepted.'],
    [['--server', 'https://user:secret@example.com'], '--server: Leave the user name and password out of the base URL'],
    [['--server', 'example.com'], '--server: The base URL is not a full address'],
    [['--out', ''], '--out takes a file name'],
    [['--out'], "Option '--out <value>' argument missing"],
    [['--format', 'yaml'], "Unknown option '--format'"],
    [['extra.json'], "Unexpected argument 'extra.json'"],
    [['--contact', 'ftp://files.example.com'], '--contact takes the API’s support address: an https:// URL or an e-mail address.'],
  ])('refuses %j with exit 2 and the usage line', async (argv, message) => {
    const { io, out, err } = captureIo()
    expect(await main(['openapi', ...argv], io)).toBe(2)
    expect(out).toEqual([])
    expect(err.join('\n')).toContain(message)
    expect(err.join('\n')).toContain('Usage: embed-console openapi [--out FILE] [--server URL]')
    // The password of a refused URL is never repeated.
    expect(err.join('\n')).not.toContain('secret')
  })

  it('exits 1 when the file cannot be written, and leaves the old file whole', async () => {
    const missingFolder = captureIo()
    expect(await main(['openapi', '--out', join(dir, 'no-such-folder', 'openapi.json')], missingFolder.io)).toBe(1)
    expect(missingFolder.err).toEqual([
      `${join(dir, 'no-such-folder', 'openapi.json')} could not be written: its folder does not exist. Nothing was changed.`,
    ])

    // A folder where the file should go: the rename fails after the temporary file was written.
    const folder = join(dir, 'taken')
    await mkdir(folder)
    await writeFile(join(folder, 'keep.txt'), 'kept')
    const taken = captureIo()
    expect(await main(['openapi', '--out', folder], taken.io)).toBe(1)
    expect(taken.err).toEqual([`${folder} could not be written: it is a folder. Nothing was changed.`])
    expect(await readFile(join(folder, 'keep.txt'), 'utf8')).toBe('kept')
    // No temporary file is left behind next to it.
    expect((await readdir(dir)).filter((name) => name.startsWith('taken'))).toEqual(['taken'])
  })

  it('replaces an existing file atomically: a reader sees the old document or the new one', async () => {
    const file = join(dir, 'replaced.json')
    await writeFile(file, '{"old": true}\n')
    await chmod(file, 0o644)
    const before = await stat(file)
    const { io } = captureIo()
    expect(await main(['openapi', '--out', file], io)).toBe(0)
    expect(await readFile(file, 'utf8')).toBe(openApiFileText(buildOpenApiDocument()))
    // A new file renamed over the old one, not the old one rewritten in place (which a reader
    // could catch half-written): another inode, the same permissions.
    const after = await stat(file)
    expect(after.ino).not.toBe(before.ino)
    expect(after.mode & 0o777).toBe(0o644)
    expect((await readdir(dir)).filter((name) => name.startsWith('replaced'))).toEqual(['replaced.json'])
  })

  it('runs from the built bin', () => {
    const result = spawnSync(process.execPath, ['bin/embed-console.js', 'openapi', '--server', 'http://127.0.0.1:8765'], {
      encoding: 'utf8',
    })
    expect(result.status).toBe(0)
    expect(JSON.parse(result.stdout).servers).toEqual([{ url: 'http://127.0.0.1:8765' }])
  })
})
