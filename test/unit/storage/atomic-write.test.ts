import { spawnSync } from 'node:child_process'
import { chmod, chown, type FileHandle, mkdir, open, readdir, readFile, stat, writeFile } from 'node:fs/promises'
import { join } from 'node:path'
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest'
import { isDiskFull, type OpenFile, writeError, writeFileAtomically } from '../../../src-main/storage/atomic-write'
import { AppErrorException } from '../../../src-shared/ipc/result'
import { failureOf } from '../../helpers/failure-of'
import { tempDir } from '../site-files/helpers'

const errno = (code: string | undefined, message = `${code} happened`) => Object.assign(new Error(message), { code })
const modeOf = async (path: string) => (await stat(path)).mode & 0o7777

/** The pid of a process that has exited: what a writer killed mid-save leaves in its file names. */
const deadPid = () => spawnSync(process.execPath, ['-e', '0']).pid

interface DiskBehaviour {
  /** A disk that takes at most this many bytes per write, as a nearly full one does. */
  takesAtMost?: number
  /** Every write after the first fails with this, as a disk that breaks mid-save. */
  laterWritesFail?: Error
  /** Opening the folder (for its fsync) fails with this, as on Windows or a folder without read permission. */
  folderOpenFails?: Error
  /** The folder's fsync fails with this, as where folders cannot be synced. */
  folderSyncFails?: Error
  /** Called when the folder is synced: what is on disk at that moment. */
  onFolderSync?: () => Promise<void>
}

/**
 * Node's open, recording each handle's open, sync and close, and its chowns apart ("file" is the temporary file,
 * "folder" its folder), and behaving as the disk described: real files all the same.
 */
function watchedOpen(disk: DiskBehaviour = {}) {
  const events: string[] = []
  const paths: string[] = []
  const chowns: string[] = []
  let writes = 0
  const watched: OpenFile = async (path, flags, mode) => {
    const what = path.endsWith('.tmp') ? 'file' : 'folder'
    if (what === 'folder' && disk.folderOpenFails) throw disk.folderOpenFails
    const handle = await open(path, flags, mode)
    events.push(`open ${what} ${flags}`)
    paths.push(path)
    const overrides: Partial<FileHandle> = {
      sync: async () => {
        events.push(`sync ${what}`)
        if (what === 'folder') await disk.onFolderSync?.()
        if (what === 'folder' && disk.folderSyncFails) throw disk.folderSyncFails
        return handle.sync()
      },
      chown: async (uid: number, gid: number) => {
        chowns.push(`${what} ${uid}:${gid}`)
        return handle.chown(uid, gid)
      },
      close: async () => {
        events.push(`close ${what}`)
        return handle.close()
      },
      write: ((data: string | Uint8Array, ...rest: unknown[]) =>
        writes++ > 0 && disk.laterWritesFail
          ? Promise.reject(disk.laterWritesFail)
          : shortWrite(handle, data, rest, disk.takesAtMost ?? Infinity)) as FileHandle['write'],
    }
    return new Proxy(handle, {
      get: (target, key) => {
        if (key in overrides) return overrides[key as keyof FileHandle]
        const value: unknown = Reflect.get(target, key)
        return typeof value === 'function' ? value.bind(target) : value
      },
    })
  }
  return { open: watched, events, paths, chowns }
}

/** FileHandle.write as a disk taking at most `most` bytes: of a buffer's range, or of a string's bytes (write(string, position)). */
function shortWrite(handle: FileHandle, data: string | Uint8Array, rest: unknown[], most: number) {
  if (typeof data === 'string') {
    const bytes = Buffer.from(data).subarray(0, most)
    return handle.write(bytes, 0, bytes.length, rest[0] as number | null)
  }
  const [offset = 0, length = data.length - (offset as number), position] = rest as [number?, number?, (number | null)?]
  return handle.write(data, offset, Math.min(length, most), position)
}

const openDescriptors = async () => (await readdir('/proc/self/fd')).length

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
      `.data.json.${dead}-${hex}.tmp`, // another file's, whose name is as long
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

describe('writeFileAtomically: the leftovers of a writer run by another user', () => {
  afterEach(() => {
    vi.restoreAllMocks()
  })

  it('keeps the temporary file of a writer it may not signal (EPERM: alive, as another user), removes a dead one’s', async () => {
    const dir = await tempDir('ec-atomic-other-user-')
    const [otherUser, dead] = [deadPid(), deadPid()]
    const hex = 'a1b2c3d4e5f6'
    // What kill(pid, 0) answers a user who is not root about another user's live process.
    const kill = process.kill.bind(process)
    vi.spyOn(process, 'kill').mockImplementation((pid, signal) => {
      if (pid === otherUser) throw errno('EPERM')
      return kill(pid, signal)
    })
    await writeFile(join(dir, `.site.json.${otherUser}-${hex}.tmp`), 'saving')
    await writeFile(join(dir, `.site.json.${dead}-${hex}.tmp`), 'left')
    await writeFileAtomically(join(dir, 'site.json'), '{}')
    expect((await readdir(dir)).sort()).toEqual([`.site.json.${otherUser}-${hex}.tmp`, 'site.json'])
  })
})

describe('writeFileAtomically on a disk that behaves badly', () => {
  let dir: string
  beforeEach(async () => {
    dir = await tempDir('ec-atomic-disk-')
  })

  it('a disk taking part of each write: text is written as its UTF-8 bytes, each byte once, in order', async () => {
    // 3 bytes a write cuts through 'é' and the emoji: the rest of the bytes follows, not the text again.
    const text = `{"name":"café ☕ 🎉","pages":[${'"p",'.repeat(40)}"end"]}\n`
    const disk = watchedOpen({ takesAtMost: 3 })
    await writeFileAtomically(join(dir, 'site.json'), text, { open: disk.open })
    expect(await readFile(join(dir, 'site.json'), 'utf8')).toBe(text)
    expect((await stat(join(dir, 'site.json'))).size).toBe(Buffer.byteLength(text))
    expect(await readdir(dir)).toEqual(['site.json'])
  })

  it('a disk taking part of each write: bytes are written as they are', async () => {
    const bytes = Uint8Array.from({ length: 1000 }, (_, index) => (index * 7) % 256)
    await writeFileAtomically(join(dir, 'data.bin'), bytes, { open: watchedOpen({ takesAtMost: 64 }).open })
    expect([...(await readFile(join(dir, 'data.bin')))]).toEqual([...bytes])
  })

  it('syncs the folder after the rename, so the rename outlasts a power cut', async () => {
    const path = join(dir, 'site.json')
    await writeFile(path, 'old')
    const seenAtFolderSync: string[][] = []
    const disk = watchedOpen({
      onFolderSync: async () => void seenAtFolderSync.push([await readFile(path, 'utf8'), ...(await readdir(dir))]),
    })
    await writeFileAtomically(path, 'new', { open: disk.open })
    expect(disk.events).toEqual(['open file wx', 'sync file', 'close file', 'open folder r', 'sync folder', 'close folder'])
    // Synced once, with the new file in place and the temporary one gone: the rename was done.
    expect(seenAtFolderSync).toEqual([['new', 'site.json']])
  })

  it('a disk that takes no byte and names no error: a full disk, not an endless loop, and nothing left behind', async () => {
    const path = join(dir, 'site.json')
    await writeFile(path, 'old')
    const disk = watchedOpen({ takesAtMost: 0 })
    expect(await failureOf(writeFileAtomically(path, 'new', { open: disk.open }))).toMatchObject({
      message: expect.stringMatching(/^The disk is full: site\.json was not saved/),
      details: { errno: 'ENOSPC' },
    })
    expect(await readFile(path, 'utf8')).toBe('old')
    expect(await readdir(dir)).toEqual(['site.json'])
    expect(disk.events).toEqual(['open file wx', 'close file'])
  })

  it('a disk that fails mid-save (EIO): its sentence, the original unchanged, the temporary file closed and removed', async () => {
    const path = join(dir, 'site.json')
    await writeFile(path, 'old')
    const disk = watchedOpen({ takesAtMost: 2, laterWritesFail: errno('EIO') })
    expect(await failureOf(writeFileAtomically(path, 'new text', { open: disk.open }))).toMatchObject({ details: { errno: 'EIO' } })
    expect(await readFile(path, 'utf8')).toBe('old')
    expect(await readdir(dir)).toEqual(['site.json'])
    expect(disk.events).toEqual(['open file wx', 'close file'])
  })

  it('names its temporary file after itself (hidden, its pid, 12 hex digits), as the leftover sweep expects', async () => {
    const disk = watchedOpen()
    await writeFileAtomically(join(dir, 'site.json'), 'x', { open: disk.open })
    expect(disk.paths[0]).toMatch(new RegExp(`^${dir}/\\.site\\.json\\.${process.pid}-[0-9a-f]{12}\\.tmp$`))
    expect(disk.paths[1]).toBe(dir)
  })

  it('closes every handle it opens, the folder’s included: no descriptor left open after 100 saves', async () => {
    const disk = watchedOpen()
    await writeFileAtomically(join(dir, 'site.json'), 'first', { open: disk.open })
    expect(disk.events.filter((event) => event.startsWith('close'))).toEqual(['close file', 'close folder'])
    const before = await openDescriptors()
    for (let save = 0; save < 100; save++) await writeFileAtomically(join(dir, 'site.json'), `save ${save}`)
    // A handle left open per save would be 100 more; a little slack for the runner's own.
    expect(await openDescriptors()).toBeLessThan(before + 20)
    expect(await readFile(join(dir, 'site.json'), 'utf8')).toBe('save 99')
  })

  it('a folder that cannot be opened for its fsync (Windows, no read permission): the save is done and reported done', async () => {
    const path = join(dir, 'site.json')
    await writeFile(path, 'old')
    const disk = watchedOpen({ folderOpenFails: errno('EACCES') })
    await writeFileAtomically(path, 'new', { open: disk.open })
    expect(await readFile(path, 'utf8')).toBe('new')
    expect(await readdir(dir)).toEqual(['site.json'])
    expect(disk.events).toEqual(['open file wx', 'sync file', 'close file'])
  })

  it('a folder that cannot be synced (EINVAL): the save is done, and the folder closed', async () => {
    const disk = watchedOpen({ folderSyncFails: errno('EINVAL') })
    await writeFileAtomically(join(dir, 'site.json'), 'new', { open: disk.open })
    expect(await readFile(join(dir, 'site.json'), 'utf8')).toBe('new')
    expect(disk.events.slice(-3)).toEqual(['open folder r', 'sync folder', 'close folder'])
  })

  /** A save over an existing file with process.getuid as given (absent on Windows): its result and the chowns tried. */
  async function replaceAs(getuid: (() => number) | undefined) {
    const path = join(dir, 'site.json')
    await writeFile(path, 'old')
    const { uid, gid } = await stat(path)
    const disk = watchedOpen()
    const real = process.getuid
    Object.assign(process, { getuid })
    try {
      await writeFileAtomically(path, 'new', { open: disk.open })
    } finally {
      Object.assign(process, { getuid: real })
    }
    expect(await readFile(path, 'utf8')).toBe('new')
    expect(await readdir(dir)).toEqual(['site.json'])
    return { chowns: disk.chowns, owner: `${uid}:${gid}` }
  }

  it('without process.getuid (Windows), replacing a file works, and no owner is set', async () => {
    expect((await replaceAs(undefined)).chowns).toEqual([])
  })

  it('only root sets the owner of a file it replaces: another user could not, and keeps its own', async () => {
    expect((await replaceAs(() => 1000)).chowns).toEqual([])
    const root = await replaceAs(() => 0)
    expect(root.chowns).toEqual([`file ${root.owner}`])
  })
})
