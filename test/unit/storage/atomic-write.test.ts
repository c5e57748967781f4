import { spawnSync } from 'node:child_process'
import { chmod, chown, mkdir, readdir, readFile, stat, writeFile } from 'node:fs/promises'
import { join } from 'node:path'
import { beforeEach, describe, expect, it } from 'vitest'
import { AppErrorException } from '../../../src-shared/ipc/result'
import { isDiskFull, writeError, writeFileAtomically } from '../../../src-main/storage/atomic-write'
import { failureOf } from '../../helpers/failure-of'
import { tempDir } from '../site-files/helpers'

const errno = (code: string | undefined, message = `${code} happened`) => Object.assign(new Error(message), { code })
const modeOf = async (path: string) => (await stat(path)).mode & 0o7777

/** The pid of a process that has exited: what a writer killed mid-save leaves in its file names. */
const deadPid = () => spawnSync(process.execPath, ['-e', '0']).pid

describe('writeError: a failed write as one sentence', () => {
  it('passes an AppErrorException through as it is', () => {
    const original = new AppErrorException('refused', 'no')
    expect(writeError(original, '/x/site.json')).toBe(original)
  })

  it('names each error the disk answers with, keeping its errno and path', () => {
    const cases: Array<[string | undefined, RegExp]> = [
      ['ENOSPC', /^The disk is full: site\.json was not saved/],
      ['EDQUOT', /^Your disk quota is used up: site\.json/],
      ['EIO', /^The disk reported an input\/output error: site\.json/],
      ['EROFS', /^The disk is read-only: site\.json/],
      ['EFBIG', /^site\.json is larger than this disk allows/],
      ['EACCES', /^Embed Console is not allowed to write \/x\/site\.json\.$/],
      ['EPERM', /^Embed Console is not allowed to write \/x\/site\.json\.$/],
      ['ENOENT', /^The folder of \/x\/site\.json does not exist\.$/],
      ['EISDIR', /^\/x\/site\.json is a folder, not a file\.$/],
      ['ENOTDIR', /^Part of \/x\/site\.json is a file, not a folder\.$/],
      ['EBUSY', /^Could not write \/x\/site\.json: EBUSY happened$/],
    ]
    for (const [code, message] of cases) {
      const error = writeError(errno(code), '/x/site.json')
      expect(error, code).toBeInstanceOf(AppErrorException)
      expect(error.code).toBe('file_io')
      expect(error.message, code).toMatch(message)
      expect(error.details).toEqual({ path: '/x/site.json', errno: code })
    }
    expect(writeError(new Error('odd'), '/x/a').details).toEqual({ path: '/x/a', errno: '' })
  })

  it('isDiskFull: no space and no quota, nothing else', () => {
    expect(isDiskFull(errno('ENOSPC'))).toBe(true)
    expect(isDiskFull(errno('EDQUOT'))).toBe(true)
    expect(isDiskFull(errno('EIO'))).toBe(false)
    expect(isDiskFull(errno(undefined))).toBe(false)
    expect(isDiskFull(errno(''))).toBe(false)
  })
})

describe('writeFileAtomically', () => {
  let dir: string
  /** Read, not set: the mutation run's workers cannot set it (npm test runs with 022). */
  const umask = process.umask()
  beforeEach(async () => {
    dir = await tempDir('ec-atomic-')
  })

  it('writes text as UTF-8 and bytes as they are', async () => {
    await writeFileAtomically(join(dir, 'text.txt'), 'café ☕ 🎉')
    expect(await readFile(join(dir, 'text.txt'), 'utf8')).toBe('café ☕ 🎉')
    const bytes = Uint8Array.from([0, 0xff, 0xc3, 0x0a])
    await writeFileAtomically(join(dir, 'bytes.bin'), bytes)
    expect([...(await readFile(join(dir, 'bytes.bin')))]).toEqual([...bytes])
    expect((await readdir(dir)).sort()).toEqual(['bytes.bin', 'text.txt'])
  })

  it('gives a new file the mode asked for exactly, or 0666 less the umask', async () => {
    await writeFileAtomically(join(dir, 'plain'), 'x')
    expect(await modeOf(join(dir, 'plain'))).toBe(0o666 & ~umask)
    await writeFileAtomically(join(dir, 'published'), 'x', { mode: 0o666 })
    expect(await modeOf(join(dir, 'published'))).toBe(0o666)
    await writeFileAtomically(join(dir, 'secret'), 'x', { mode: 0o600 })
    expect(await modeOf(join(dir, 'secret'))).toBe(0o600)
  })

  it('keeps the mode of a file it replaces, unless told to force one', async () => {
    const path = join(dir, 'kept')
    await writeFile(path, 'old')
    await chmod(path, 0o666)
    await writeFileAtomically(path, 'new')
    expect(await modeOf(path)).toBe(0o666)
    await chmod(path, 0o640)
    await writeFileAtomically(path, 'newer', { mode: 0o600 })
    expect(await modeOf(path)).toBe(0o640)
    await writeFileAtomically(path, 'newest', { mode: 0o600, forceMode: true })
    expect(await modeOf(path)).toBe(0o600)
    expect(await readFile(path, 'utf8')).toBe('newest')
  })

  it.skipIf(process.getuid?.() !== 0)('running as root, keeps the owner of a file it replaces', async () => {
    const path = join(dir, 'owned')
    await writeFile(path, 'old')
    await chown(path, 1234, 2345)
    await writeFileAtomically(path, 'new')
    expect(await stat(path)).toMatchObject({ uid: 1234, gid: 2345 })
    await writeFileAtomically(join(dir, 'fresh'), 'new')
    expect(await stat(join(dir, 'fresh'))).toMatchObject({ uid: 0 })
  })

  it('refuses a folder, a path through a file and a missing folder with their sentences, leaving nothing behind', async () => {
    await mkdir(join(dir, 'folder'))
    await writeFile(join(dir, 'file'), 'x')
    expect(await failureOf(writeFileAtomically(join(dir, 'folder'), 'x'))).toMatchObject({ code: 'file_io', details: { errno: 'EISDIR' } })
    expect(await failureOf(writeFileAtomically(join(dir, 'file', 'child'), 'x'))).toMatchObject({
      code: 'file_io',
      details: { errno: 'ENOTDIR' },
    })
    expect(await failureOf(writeFileAtomically(join(dir, 'missing', 'child'), 'x'))).toMatchObject({
      code: 'file_io',
      details: { errno: 'ENOENT' },
    })
    expect((await readdir(dir)).sort()).toEqual(['file', 'folder'])
  })

  it('removes the temporary files of writers that died, and only theirs', async () => {
    const dead = deadPid()
    const hex = 'a1b2c3d4e5f6'
    const removed = [`.site.json.${dead}-${hex}.tmp`]
    const kept = [
      `.site.json.${process.pid}-${hex}.tmp`, // this process: a save in progress
      `.site.json.1-${hex}.tmp`, // alive
      `.other.json.${dead}-${hex}.tmp`, // another file's
      `.site.json.x${dead}-${hex}.tmp`,
      `.site.json.${dead}-${hex}.tmp.tmp`,
      `.site.json.${dead}-${hex.slice(1)}.tmp`,
      `.site.json.${dead}-${hex.replace('a', 'g')}.tmp`,
      `.site.json.${dead}-${hex}.tmp.bak`,
      `.site.json.${dead}-${hex}`,
      '.site.json.notes.tmp',
      `site.json.${dead}-${hex}.tmp`,
    ]
    for (const name of [...removed, ...kept]) await writeFile(join(dir, name), 'left')
    await writeFileAtomically(join(dir, 'site.json'), '{}')
    expect((await readdir(dir)).sort()).toEqual([...kept, 'site.json'].sort())
  })
})
