import { execFileSync } from 'node:child_process'
import { chmod, mkdir, open, readdir, readFile, rm, stat, symlink, writeFile } from 'node:fs/promises'
import { createServer } from 'node:net'
import { homedir } from 'node:os'
import { join } from 'node:path'
import { describe, expect, it } from 'vitest'
import {
  currentVersion,
  FileAccessPolicy,
  fileExists,
  isInside,
  readRegularFile,
  readVersionedText,
  realPathInside,
  resolveUserPath,
  rethrowAsAppError,
  sameContent,
  writeTextAtomically,
  writeTextsTogether,
} from '../../../src-main/user-files/file-access'
import { systemFolderOf } from '../../../src-main/user-files/system-folders'
import { AppErrorException } from '../../../src-shared/ipc/result'
import { failureOf } from '../../helpers/failure-of'
import { tempDir } from '../site-files/helpers'

const errno = (code: string) => Object.assign(new Error(`${code} happened`), { code })
const openFds = async () => (await readdir('/proc/self/fd')).length

describe('paths as the operator types them', () => {
  it('expands ~ and ~/ (or ~\\) to the home folder, and normalises an absolute path', () => {
    expect(resolveUserPath('~', '/home/op')).toBe('/home/op')
    expect(resolveUserPath('~/docs/site.json', '/home/op')).toBe('/home/op/docs/site.json')
    expect(resolveUserPath('~\\site.json', '/home/op')).toBe('/home/op/site.json')
    expect(resolveUserPath('/a/b/../site.json', '/home/op')).toBe('/a/site.json')
    expect(resolveUserPath('~')).toBe(homedir())
  })

  it('refuses a relative path, ~user and a ~ that is not at the start, naming the path', async () => {
    for (const path of ['docs/site.json', '~op/site.json', 'x~/site.json', '']) {
      const error = await failureOf(() => resolveUserPath(path, '/home/op'))
      expect(error.code, path).toBe('refused')
      expect(error.message).toBe('Give the full path of the file, like /home/op/docs/site.json.')
      expect(error.details).toEqual({ path })
    }
  })
})

describe('isInside', () => {
  it('is true for the folder itself and anything below it, names starting with two dots included', () => {
    expect(isInside('/data', '/data')).toBe(true)
    expect(isInside('/data/vault.db', '/data')).toBe(true)
    expect(isInside('/data/..vault', '/data')).toBe(true)
    expect(isInside('/data/a/../b', '/data')).toBe(true)
  })

  it('is false for a sibling, the parent, or a folder whose name only begins the same', () => {
    expect(isInside('/', '/data')).toBe(false)
    expect(isInside('/database', '/data')).toBe(false)
    expect(isInside('/other/data', '/data')).toBe(false)
    expect(isInside('/data/../other', '/data')).toBe(false)
  })

  it('compares case as the file system does', () => {
    expect(isInside('/DATA/vault.db', '/data', false)).toBe(false)
    expect(isInside('/DATA/vault.db', '/data', true)).toBe(true)
    expect(isInside('/data/vault.db', '/DATA', true)).toBe(true)
  })
})

describe('FileAccessPolicy', () => {
  it('resolves links and refuses the data folder however it is reached, and nothing else', async () => {
    const root = await tempDir('ec-policy-')
    const data = join(root, 'data')
    await mkdir(data)
    await writeFile(join(data, 'vault.db'), 'secret')
    await writeFile(join(root, 'site.json'), '{}')
    await symlink(join(data, 'vault.db'), join(root, 'link.json'))
    await symlink(data, join(root, 'data-link'))
    const policy = new FileAccessPolicy(data)
    expect(await policy.resolve(join(root, 'site.json'))).toBe(join(root, 'site.json'))
    expect(await policy.resolve(join(root, 'new.json'))).toBe(join(root, 'new.json'))
    for (const path of [
      join(data, 'vault.db'),
      join(root, 'link.json'),
      join(root, 'data-link', 'new.json'),
      join(data, 'sub', 'new.json'),
      data,
    ]) {
      const error = await failureOf(policy.resolve(path))
      expect(error.code, path).toBe('refused')
      expect(error.details).toEqual({ path })
    }
    expect(await new FileAccessPolicy(null).resolve(join(data, 'vault.db'))).toBe(join(data, 'vault.db'))
  })

  it('refuses a data folder that does not exist yet by its spelled path', async () => {
    const root = await tempDir('ec-policy-')
    const policy = new FileAccessPolicy(join(root, 'later'))
    expect((await failureOf(policy.resolve(join(root, 'later', 'x.json')))).code).toBe('refused')
  })

  it('says so when a path goes through a file', async () => {
    const root = await tempDir('ec-policy-')
    await writeFile(join(root, 'file'), 'x')
    const error = await failureOf(new FileAccessPolicy(null).resolve(join(root, 'file', 'child.json')))
    expect(error).toMatchObject({ code: 'file_io', details: { errno: 'ENOTDIR' } })
  })
})

describe('reading a file', () => {
  it('reads text and its version, with or without a byte order mark', async () => {
    const root = await tempDir('ec-read-')
    await writeFile(join(root, 'a.json'), '\ufeff{"a":1}')
    const read = await readVersionedText(join(root, 'a.json'))
    expect(read).toMatchObject({ text: '{"a":1}', byteOrderMark: true, version: { size: 10 } })
    expect(read.version.sha256).toMatch(/^[0-9a-f]{64}$/)
    expect(await currentVersion(join(root, 'a.json'))).toEqual(read.version)
  })

  it('reads a file of exactly the cap, refuses one byte more with its size, and closes what it opened', async () => {
    const root = await tempDir('ec-read-')
    await writeFile(join(root, 'at-cap'), 'x'.repeat(200_000))
    await writeFile(join(root, 'over'), 'x'.repeat(200_001))
    const before = await openFds()
    for (let round = 0; round < 20; round++) expect((await readRegularFile(join(root, 'at-cap'), 200_000)).bytes.length).toBe(200_000)
    const error = await failureOf(readRegularFile(join(root, 'over'), 200_000))
    expect(error).toMatchObject({
      code: 'file_io',
      message: 'over is larger than 200 kB: too large to be a site.json file.',
      details: { path: join(root, 'over') },
    })
    expect(await openFds()).toBe(before)
  })

  it('refuses a folder, a pipe and a socket by what they are, without opening them', async () => {
    const root = await tempDir('ec-read-')
    execFileSync('mkfifo', [join(root, 'pipe')])
    const socketServer = createServer()
    await new Promise<void>((resolve) => socketServer.listen(join(root, 'socket'), resolve))
    try {
      const cases: Array<[string, string]> = [
        [root, `${root} is a folder, not a file.`],
        [join(root, 'pipe'), 'pipe is a pipe (FIFO), not a file: it is not opened, since reading it could wait forever.'],
        [join(root, 'socket'), 'socket is not a regular file.'],
      ]
      for (const [path, message] of cases) {
        expect(await failureOf(readVersionedText(path))).toMatchObject({ code: 'file_io', message, details: { path } })
        expect(await failureOf(writeTextAtomically(path, 'x'))).toMatchObject({ code: 'file_io', message, details: { path } })
      }
      expect((await stat(join(root, 'pipe'))).isFIFO()).toBe(true)
    } finally {
      socketServer.close()
    }
  })

  it('refuses anything under /proc, /sys and /dev, however the path is spelled, before opening it', async () => {
    const root = await tempDir('ec-read-')
    await symlink('/proc/self/environ', join(root, 'environ.json'))
    await symlink('/proc/self', join(root, 'me'))
    const policy = new FileAccessPolicy(null)
    const refused = (path: string) => ({
      code: 'refused',
      message: expect.stringMatching(/, whose files describe the running system \(and can hold its secrets\) rather than hold yours: /),
      details: { path },
    })
    for (const path of [
      '/proc/self/environ',
      '/proc/self/cmdline',
      '/sys/kernel/mm/transparent_hugepage/enabled',
      '/dev/null',
      '/dev/zero',
    ]) {
      expect(await failureOf(readVersionedText(path)), path).toMatchObject(refused(path))
      expect(await failureOf(policy.resolve(path)), path).toMatchObject(refused(path))
    }
    for (const path of [join(root, 'environ.json'), join(root, 'me', 'environ'), `${root}/me/../self/status`]) {
      expect(await failureOf(readVersionedText(path)), path).toMatchObject(refused(path))
      expect(await failureOf(policy.resolve(path)), path).toMatchObject(refused(path))
      expect(await failureOf(writeTextAtomically(path, '{}')), path).toMatchObject({ code: 'refused' })
    }
    expect((await failureOf(readVersionedText(join(root, 'environ.json')))).message).toBe(
      `${join(root, 'environ.json')} is under /proc, whose files describe the running system (and can hold its secrets) rather than hold yours: Embed Console never opens or writes anything under /proc, /sys or /dev.`,
    )
    expect(systemFolderOf('/proc')).toBe('/proc')
    expect(systemFolderOf('/process/site.json')).toBeNull()
    expect(systemFolderOf('/devices/site.json')).toBeNull()
    expect(systemFolderOf('/dev/null', 'win32')).toBeNull()
  })

  it('refuses text that is not UTF-8', async () => {
    const root = await tempDir('ec-read-')
    await writeFile(join(root, 'latin.json'), Buffer.from([0x7b, 0xe9, 0x7d]))
    expect(await failureOf(readVersionedText(join(root, 'latin.json')))).toMatchObject({
      code: 'file_io',
      message:
        'latin.json is not UTF-8 text: line 1 holds the byte 0xE9, which UTF-8 does not allow there. Save it as UTF-8 to use it here.',
      details: { path: join(root, 'latin.json') },
    })
  })

  it('currentVersion: null for no file, an error for what cannot be read', async () => {
    const root = await tempDir('ec-read-')
    expect(await currentVersion(join(root, 'none.json'))).toBeNull()
    expect((await failureOf(currentVersion(root))).code).toBe('file_io')
  })

  it('fileExists: yes, no, or why it cannot tell', async () => {
    const root = await tempDir('ec-read-')
    await writeFile(join(root, 'file'), 'x')
    expect(await fileExists(join(root, 'file'))).toBe(true)
    expect(await fileExists(join(root, 'none'))).toBe(false)
    expect(await failureOf(fileExists(join(root, 'file', 'child')))).toMatchObject({
      code: 'file_io',
      message: `Part of ${join(root, 'file', 'child')} is a file, not a folder.`,
    })
  })
})

describe('a file swapped between its check and its open', () => {
  // Each swap runs where another process could make it: after the path was checked, before it is opened.
  const swappedBeforeOpen = (swap: (path: string) => Promise<void>) => ({
    open: async (path: string, flags: number) => {
      await swap(path)
      return open(path, flags)
    },
  })

  it('refuses a pipe put in its place, at once, by what the opened handle is', async () => {
    const root = await tempDir('ec-swap-')
    await writeFile(join(root, 'site.json'), '{}')
    const toPipe = swappedBeforeOpen(async (path) => {
      await rm(path)
      execFileSync('mkfifo', [path])
    })
    // Opened without O_NONBLOCK, a pipe with no writer would hold the read here until the test times out.
    expect(await failureOf(readRegularFile(join(root, 'site.json'), 1000, toPipe))).toMatchObject({
      code: 'file_io',
      message: 'site.json is a pipe (FIFO), not a file: it is not opened, since reading it could wait forever.',
      details: { path: join(root, 'site.json') },
    })
  })

  it('refuses a link to a file under /proc put in its place, by the opened file’s device', async () => {
    const root = await tempDir('ec-swap-')
    await writeFile(join(root, 'site.json'), '{}')
    const toProc = swappedBeforeOpen(async (path) => {
      await rm(path)
      await symlink('/proc/self/status', path)
    })
    expect(await failureOf(readRegularFile(join(root, 'site.json'), 100_000, toProc))).toMatchObject({
      code: 'refused',
      message: expect.stringContaining(`${join(root, 'site.json')} is under /proc, whose files describe the running system`),
      details: { path: join(root, 'site.json') },
    })
  })

  it('says there is no file when it is removed after the check, whether before its stat or its open', async () => {
    const root = await tempDir('ec-swap-')
    const path = join(root, 'site.json')
    const notFound = { code: 'not_found', message: `There is no file at ${path}.`, details: { path, errno: 'ENOENT' } }
    await writeFile(path, '{}')
    const removedBeforeStat = {
      stat: async (real: string) => {
        await rm(real)
        return stat(real)
      },
    }
    expect(await failureOf(readRegularFile(path, 1000, removedBeforeStat))).toMatchObject(notFound)
    await writeFile(path, '{}')
    expect(
      await failureOf(
        readRegularFile(
          path,
          1000,
          swappedBeforeOpen((real) => rm(real)),
        ),
      ),
    ).toMatchObject(notFound)
  })

  it('says why a read that fails half-way failed, and closes the file', async () => {
    const root = await tempDir('ec-swap-')
    await writeFile(join(root, 'site.json'), '{}')
    const before = await openFds()
    const failingDisk = {
      open: async (path: string, flags: number) => {
        const handle = await open(path, flags)
        handle.read = () => Promise.reject(errno('EIO'))
        return handle
      },
    }
    expect(await failureOf(readRegularFile(join(root, 'site.json'), 1000, failingDisk))).toMatchObject({
      code: 'file_io',
      message: `Could not read ${join(root, 'site.json')}: EIO happened`,
      details: { errno: 'EIO' },
    })
    expect(await openFds()).toBe(before)
  })

  it('reads no more than one byte past the cap of a file that is too large, whatever its size says', async () => {
    const root = await tempDir('ec-swap-')
    await writeFile(join(root, 'large.json'), 'x'.repeat(1_000_000))
    let bytesRead = 0
    const counted = {
      open: async (path: string, flags: number) => {
        const handle = await open(path, flags)
        const read = handle.read.bind(handle) as (
          buffer: Buffer,
          offset: number,
          length: number,
          position: null,
        ) => Promise<{ bytesRead: number }>
        handle.read = (async (buffer: Buffer, offset: number, length: number, position: null) => {
          const result = await read(buffer, offset, length, position)
          bytesRead += result.bytesRead
          return result
        }) as typeof handle.read
        return handle
      },
    }
    for (const cap of [1000, 100_000, 200_000]) {
      bytesRead = 0
      expect((await failureOf(readRegularFile(join(root, 'large.json'), cap, counted))).message).toMatch(/is larger than/)
      expect(bytesRead, `cap ${cap}`).toBe(cap + 1)
    }
  })
})

describe('devices outside /dev', () => {
  // mknod needs root (CI runs as root); a device node made elsewhere is stat()ed, never opened.
  const root = process.getuid?.() === 0
  if (!root && process.env.CI === 'true') throw new Error('mknod needs root, and CI must run the device tests.')
  it.skipIf(!root)('refuses a character or block device by what it is, without opening it', async () => {
    const folder = await tempDir('ec-device-')
    execFileSync('mknod', [join(folder, 'null.json'), 'c', '1', '3'])
    execFileSync('mknod', [join(folder, 'disk.json'), 'b', '7', '0'])
    for (const name of ['null.json', 'disk.json']) {
      const path = join(folder, name)
      const refused = { code: 'file_io', message: `${name} is a device, not a file.`, details: { path } }
      expect(await failureOf(readVersionedText(path)), name).toMatchObject(refused)
      expect(await failureOf(writeTextAtomically(path, '{}')), name).toMatchObject(refused)
    }
  })
})

describe('realPathInside', () => {
  it('answers the real path of a file inside, and refuses a link out of the folder without reading through it', async () => {
    const outside = await tempDir('ec-outside-')
    const root = await tempDir('ec-inside-')
    await writeFile(join(outside, 'secret.json'), '{}')
    await mkdir(join(root, 'nav'))
    await writeFile(join(root, 'nav', 'a.json'), '{}')
    await symlink(join(outside, 'secret.json'), join(root, 'nav', 'out.json'))
    await symlink(join(root, 'nav', 'a.json'), join(root, 'in.json'))
    expect(await realPathInside(root, join(root, 'nav', 'a.json'))).toBe(join(root, 'nav', 'a.json'))
    expect(await realPathInside(root, join(root, 'in.json'))).toBe(join(root, 'nav', 'a.json'))
    expect(await failureOf(realPathInside(root, join(root, 'nav', 'out.json')))).toMatchObject({
      code: 'refused',
      message: 'nav/out.json is a link out of the docs folder: links that lead out of it are never read through.',
      details: { path: join(root, 'nav', 'out.json') },
    })
  })

  it('says which is missing, the folder or the file', async () => {
    const root = await tempDir('ec-inside-')
    expect(await failureOf(realPathInside(root, join(root, 'none.json')))).toMatchObject({
      code: 'not_found',
      details: { path: join(root, 'none.json') },
    })
    expect(await failureOf(realPathInside(join(root, 'gone'), join(root, 'gone', 'a.json')))).toMatchObject({
      code: 'not_found',
      details: { path: expect.stringContaining(join(root, 'gone')) },
    })
    await writeFile(join(root, 'a.json'), '{}')
    expect(await failureOf(realPathInside(join(root, 'gone'), join(root, 'a.json')))).toMatchObject({
      code: 'not_found',
      message: `There is no file at ${join(root, 'gone')}.`,
      details: { path: join(root, 'gone') },
    })
  })
})

describe('versions', () => {
  it('are the same content when size and hash agree, whatever the time', () => {
    const version = { mtimeMs: 1, size: 3, sha256: 'abc' }
    expect(sameContent(version, { ...version, mtimeMs: 2 })).toBe(true)
    expect(sameContent(version, { ...version, size: 4 })).toBe(false)
    expect(sameContent(version, { ...version, sha256: 'abd' })).toBe(false)
  })
})

describe('writeTextAtomically', () => {
  it('writes UTF-8 without a byte order mark unless asked, and answers the version written', async () => {
    const root = await tempDir('ec-write-')
    const plain = await writeTextAtomically(join(root, 'plain.json'), '{"é":1}')
    expect(await readFile(join(root, 'plain.json'))).toEqual(Buffer.from('{"é":1}'))
    expect(plain).toMatchObject({ size: 8 })
    expect(plain).toEqual((await readVersionedText(join(root, 'plain.json'))).version)
    await writeTextAtomically(join(root, 'marked.json'), '{}', true)
    expect(await readFile(join(root, 'marked.json'))).toEqual(Buffer.from('\ufeff{}'))
  })

  it('gives a new file the mode asked for, and leaves a replaced file its own', async () => {
    const root = await tempDir('ec-write-')
    await writeTextAtomically(join(root, 'new.json'), '{}', false, 0o600)
    expect((await stat(join(root, 'new.json'))).mode & 0o777).toBe(0o600)
    await writeFile(join(root, 'old.json'), '[]')
    await chmod(join(root, 'old.json'), 0o640)
    await writeTextAtomically(join(root, 'old.json'), '{}', false, 0o600)
    expect((await stat(join(root, 'old.json'))).mode & 0o777).toBe(0o640)
  })
})

describe('writeTextsTogether', () => {
  it('writes every file, or none when one path is not a file it may replace', async () => {
    const root = await tempDir('ec-together-')
    const journals = await tempDir('ec-journals-')
    await writeFile(join(root, 'docs.json'), '{"old":1}')
    await mkdir(join(root, 'nav.json'))
    const error = await failureOf(
      writeTextsTogether(
        [
          { path: join(root, 'docs.json'), text: '{"new":1}', byteOrderMark: false },
          { path: join(root, 'nav.json'), text: '[]', byteOrderMark: false },
        ],
        journals,
        'site',
      ),
    )
    expect(error).toMatchObject({
      code: 'file_io',
      message: `${join(root, 'nav.json')} is a folder, not a file.`,
      details: { path: join(root, 'nav.json') },
    })
    expect(await readFile(join(root, 'docs.json'), 'utf8')).toBe('{"old":1}')
    await rm(join(root, 'nav.json'), { recursive: true })
    const versions = await writeTextsTogether(
      [
        { path: join(root, 'docs.json'), text: '{"new":1}', byteOrderMark: true },
        { path: join(root, 'nav.json'), text: '[]', byteOrderMark: false },
      ],
      journals,
      'site',
    )
    expect(await readFile(join(root, 'docs.json'), 'utf8')).toBe('\ufeff{"new":1}')
    expect(await readFile(join(root, 'nav.json'), 'utf8')).toBe('[]')
    expect(versions).toEqual([
      (await readVersionedText(join(root, 'docs.json'))).version,
      (await readVersionedText(join(root, 'nav.json'))).version,
    ])
  })
})

describe('rethrowAsAppError', () => {
  it('passes an AppErrorException through', () => {
    const original = new AppErrorException('refused', 'no')
    expect(() => rethrowAsAppError(original, '/x', 'read')).toThrow(original)
  })

  it('says what failed, reading or writing, with its errno', async () => {
    const cases: Array<[string, 'read' | 'write', string, string]> = [
      ['ENOENT', 'read', 'not_found', 'There is no file at /x/a.json.'],
      ['ENOENT', 'write', 'file_io', 'The folder of /x/a.json does not exist.'],
      ['EACCES', 'read', 'file_io', 'Embed Console is not allowed to read /x/a.json.'],
      ['EPERM', 'read', 'file_io', 'Embed Console is not allowed to read /x/a.json.'],
      ['EACCES', 'write', 'file_io', 'Embed Console is not allowed to write /x/a.json.'],
      [
        'ENOSPC',
        'write',
        'file_io',
        'The disk is full: a.json was not saved, and the file on disk is unchanged. Free some space and save again.',
      ],
      ['EISDIR', 'read', 'file_io', '/x/a.json is a folder, not a file.'],
      ['ENOTDIR', 'read', 'file_io', 'Part of /x/a.json is a file, not a folder.'],
      ['EIO', 'read', 'file_io', 'Could not read /x/a.json: EIO happened'],
    ]
    for (const [code, action, appCode, message] of cases) {
      const error = await failureOf(() => rethrowAsAppError(errno(code), '/x/a.json', action))
      expect(error, `${code} ${action}`).toMatchObject({ code: appCode, message, details: { path: '/x/a.json', errno: code } })
    }
  })
})
