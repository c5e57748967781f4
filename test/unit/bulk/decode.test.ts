import { mkdtemp, writeFile } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { describe, expect, it } from 'vitest'
import { main } from '../../../src-main/cli/index'
import type { CliIo } from '../../../src-main/cli/usage'
import { startSandbox } from '../../../src-main/sandbox/sandbox-server'
import { decodeInput } from '../../../src-shared/bulk/decode'
import { readSandboxData } from '../../helpers/sandbox-data'

/** "Café" as Excel's "CSV" writes it on Windows: é is the single byte 0xE9. */
const windows1252 = Buffer.from('user_group_id,name\ncafe-1,Plain\ncafe-2,Caf\xe9\n', 'latin1')

/** What a strict UTF-8 decoder says of the bytes: the oracle for the hand-written check. */
const isUtf8 = (bytes: number[]) => {
  try {
    new TextDecoder('utf-8', { fatal: true }).decode(Uint8Array.from(bytes))
    return true
  } catch {
    return false
  }
}

describe('decoding a file of rows', () => {
  it('agrees with a strict UTF-8 decoder on every lead byte and on the edges of each second-byte range', () => {
    const cases: number[][] = []
    for (let lead = 0x00; lead <= 0xff; lead++) {
      cases.push([0x61, lead], [lead, 0x80], [lead, 0x80, 0x80], [lead, 0x80, 0x80, 0x80], [lead, 0xbf, 0xbf, 0xbf])
      for (const second of [0x7f, 0x80, 0x8f, 0x90, 0x9f, 0xa0, 0xbf, 0xc0]) cases.push([lead, second, 0x80, 0x80, 0x41])
    }
    cases.push([0xc3, 0x41], [0xe2, 0x41, 0x80], [0xe2, 0x82, 0x41], [0xf0, 0x9f, 0x98, 0x41], [0xe2, 0x82])
    for (const bytes of cases) {
      const decoded = decodeInput(Uint8Array.from(bytes), 'x.csv')
      expect(decoded.ok, bytes.map((byte) => byte.toString(16)).join(' ')).toBe(isUtf8(bytes))
    }
  })

  it('names the line and the byte where the text stops being UTF-8', () => {
    expect(decodeInput(Buffer.from([0x61, 0x0a, 0x62, 0x0a, 0xc3, 0x41]), 'x')).toMatchObject({ ok: false, line: 3, byte: 0xc3 })
    expect(decodeInput(Buffer.from([0x0a, 0x0a, 0xff]), 'x')).toMatchObject({ ok: false, line: 3, byte: 0xff })
  })

  it('reads a byte order mark before the operator’s choice, and only a whole one', () => {
    const utf8WithMark = Buffer.from('\ufeffcafé', 'utf8')
    expect(decodeInput(utf8WithMark, 'x.csv', 'windows-1252')).toEqual({ ok: true, text: 'café', encoding: 'utf-8' })
    // Windows-1252 text that starts like a mark, but is not one: ÿa, þa, aþ, ï»a.
    for (const [bytes, text] of [
      [[0xff, 0x61], 'ÿa'],
      [[0xfe, 0x61], 'þa'],
      [[0x61, 0xfe], 'aþ'],
      [[0x61, 0xff], 'aÿ'],
      [[0xef, 0xbb, 0x61], 'ï»a'],
      [[0xef, 0x61, 0xbf], 'ïa¿'],
      [[0x61, 0xbb, 0xbf], 'a»¿'],
    ] as const) {
      expect(decodeInput(Uint8Array.from(bytes), 'x.csv', 'windows-1252')).toEqual({ ok: true, text, encoding: 'windows-1252' })
    }
  })

  it('reads UTF-8, and a byte order mark of UTF-8 or UTF-16 first', () => {
    expect(decodeInput(Buffer.from('a,é\n'), 'x.csv')).toEqual({ ok: true, text: 'a,é\n', encoding: 'utf-8' })
    expect(decodeInput(Buffer.from('\ufeffa,é', 'utf8'), 'x.csv')).toEqual({ ok: true, text: 'a,é', encoding: 'utf-8' })
    expect(decodeInput(Buffer.concat([Buffer.from([0xff, 0xfe]), Buffer.from('a,é', 'utf16le')]), 'x.csv')).toEqual({
      ok: true,
      text: 'a,é',
      encoding: 'utf-16le',
    })
    expect(decodeInput(Buffer.concat([Buffer.from([0xfe, 0xff]), Buffer.from('a,é', 'utf16le').swap16()]), 'x.csv')).toEqual({
      ok: true,
      text: 'a,é',
      encoding: 'utf-16be',
    })
  })

  it('refuses text that is not UTF-8 with the line of its first bad byte, never with U+FFFD in its place', () => {
    expect(decodeInput(windows1252, 'cafes.csv')).toEqual({
      ok: false,
      line: 3,
      byte: 0xe9,
      message:
        'cafes.csv is not UTF-8 text: line 3 holds the byte 0xE9, which UTF-8 does not allow there. It may be Windows-1252 (Excel\'s "CSV" on Windows): read it as Windows-1252, or save it as "CSV UTF-8".',
    })
    // Overlong forms and encoded surrogates are not UTF-8 either.
    expect(decodeInput(Buffer.from([0x61, 0x0a, 0xc0, 0xaf]), 'x')).toMatchObject({ ok: false, line: 2 })
    expect(decodeInput(Buffer.from([0xed, 0xa0, 0x80]), 'x')).toMatchObject({ ok: false, line: 1 })
    expect(decodeInput(Buffer.from([0xe2, 0x82]), 'x')).toMatchObject({ ok: false })
  })

  it('reads Windows-1252 when the operator says so', () => {
    expect(decodeInput(windows1252, 'cafes.csv', 'windows-1252')).toMatchObject({
      ok: true,
      text: expect.stringContaining('cafe-2,Café'),
      encoding: 'windows-1252',
    })
  })

  it('groups apply: refused (exit 2) by default, sent with --encoding windows-1252', async () => {
    const dir = await mkdtemp(join(tmpdir(), 'ec-decode-'))
    const sandbox = await startSandbox({ dataFile: join(dir, 'sandbox.db') })
    try {
      const file = join(dir, 'cafes.csv')
      await writeFile(file, windows1252)
      const run = (extra: string[]) => {
        const err: string[] = []
        const io: CliIo = {
          env: { EMBED_CONSOLE_TOKEN: sandbox.tokens.Customer, EMBED_CONSOLE_DATA_DIR: join(dir, 'data') },
          stdout: () => {},
          stderr: (text) => err.push(text),
          stdin: async () => '',
        }
        return main(['groups', 'apply', file, '--base-url', sandbox.baseUrl, ...extra], io).then((code) => ({ code, err }))
      }
      const refused = await run([])
      expect(refused.code).toBe(2)
      expect(refused.err[0]).toMatch(/^cafes\.csv is not UTF-8 text: line 3 holds the byte 0xE9/)
      expect(readSandboxData(join(dir, 'sandbox.db')).groups).toEqual([])
      expect((await run(['--encoding', 'windows-1252'])).code).toBe(0)
      expect(
        readSandboxData(join(dir, 'sandbox.db'))
          .groups.map((group) => group.provided_id)
          .sort(),
      ).toEqual(['cafe-1', 'cafe-2'])
    } finally {
      await sandbox.close()
    }
  })
})

describe('decoding: whole sequences of every length', () => {
  it('agrees with a strict UTF-8 decoder on each lead byte with each edge second byte, at each sequence length', () => {
    for (let lead = 0x00; lead <= 0xff; lead++) {
      for (const second of [0x7f, 0x80, 0x8f, 0x90, 0x9f, 0xa0, 0xbf, 0xc0]) {
        for (const bytes of [
          [lead, second],
          [lead, second, 0x80],
          [lead, second, 0x80, 0x80],
        ]) {
          for (const candidate of [bytes, [...bytes, 0x41]]) {
            const decoded = decodeInput(Uint8Array.from(candidate), 'x.csv')
            expect(decoded.ok, candidate.map((byte) => byte.toString(16)).join(' ')).toBe(isUtf8(candidate))
          }
        }
      }
    }
  })
})
