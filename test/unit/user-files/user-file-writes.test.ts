import { execFileSync } from 'node:child_process'
import { link, mkdir, rename, stat, symlink, utimes, writeFile } from 'node:fs/promises'
import { join } from 'node:path'
import { beforeEach, describe, expect, it } from 'vitest'
import { FileAccessPolicy } from '../../../src-main/user-files/file-access'
import { UserFileWrites } from '../../../src-main/user-files/user-file-writes'
import { failureOf } from '../../helpers/failure-of'
import { tempDir } from '../site-files/helpers'

const TEN_MINUTES = 10 * 60_000

describe('the one rule for writing to a path the operator named', () => {
  let root: string
  let now: number
  let writes: UserFileWrites
  beforeEach(async () => {
    root = await tempDir('ec-user-writes-')
    await mkdir(join(root, 'data'))
    now = 1_000_000
    writes = new UserFileWrites(new FileAccessPolicy(join(root, 'data')), () => now)
  })

  /** The token a refusal to replace hands out. */
  const tokenFor = async (path: string, purpose = 'results') => {
    const error = await failureOf(writes.allow(path, purpose, undefined))
    expect(error.code).toBe('conflict')
    return (error.details as { replaceToken: string }).replaceToken
  }

  it('lets a new file be written, and says it replaces nothing', async () => {
    expect(await writes.allow(join(root, 'new.csv'), 'results', undefined)).toEqual({ path: join(root, 'new.csv'), replaces: false })
    expect(await writes.ask(join(root, 'new.csv'), 'results')).toEqual({ path: join(root, 'new.csv'), existing: null })
  })

  it('asks before replacing, and takes the token it handed out once', async () => {
    const path = join(root, 'old.csv')
    await writeFile(path, 'old')
    const error = await failureOf(writes.allow(path, 'results', undefined))
    expect(error).toMatchObject({ code: 'conflict', message: 'A file named old.csv already exists there. Replace it?', details: { path } })
    const token = (error.details as { replaceToken: string }).replaceToken
    expect(token).toMatch(/^[\w-]{32}$/)
    expect(await writes.allow(path, 'results', token)).toEqual({ path, replaces: true })
    const again = await failureOf(writes.allow(path, 'results', token))
    expect(again).toMatchObject({
      code: 'conflict',
      message:
        'old.csv is not the file you agreed to replace: it changed since, or the answer is over 10 minutes old. Replace it as it is now?',
    })
  })

  it('replaces without a token when the system dialog already asked', async () => {
    await writeFile(join(root, 'old.csv'), 'old')
    expect(await writes.allow(join(root, 'old.csv'), 'results', undefined, true)).toEqual({ path: join(root, 'old.csv'), replaces: true })
  })

  it('asks ahead with the size and time of the file, and that token is taken too', async () => {
    const path = join(root, 'old.csv')
    await writeFile(path, 'old')
    const info = await stat(path)
    const question = await writes.ask(path, 'reference')
    expect(question).toEqual({
      path,
      existing: { size: 3, modifiedAt: new Date(info.mtimeMs).toISOString(), replaceToken: expect.any(String) },
    })
    expect(await writes.allow(path, 'reference', question.existing!.replaceToken)).toEqual({ path, replaces: true })
  })

  it('refuses a token for another purpose, another file, or a file changed since', async () => {
    const path = join(root, 'old.csv')
    await writeFile(path, 'old')
    await writeFile(join(root, 'other.csv'), 'old')
    expect((await failureOf(writes.allow(path, 'export', await tokenFor(path)))).code).toBe('conflict')
    expect((await failureOf(writes.allow(join(root, 'other.csv'), 'results', await tokenFor(path)))).code).toBe('conflict')
    // Another size.
    let token = await tokenFor(path)
    await writeFile(path, 'changed')
    expect((await failureOf(writes.allow(path, 'results', token))).code).toBe('conflict')
    // The same size, another time.
    token = await tokenFor(path)
    await utimes(path, new Date(2001, 1, 1), new Date(2001, 1, 1))
    expect((await failureOf(writes.allow(path, 'results', token))).code).toBe('conflict')
    // Another file of the same size and time put in its place.
    token = await tokenFor(path)
    const { mtime } = await stat(path)
    await writeFile(join(root, 'swap.csv'), 'changed')
    await utimes(join(root, 'swap.csv'), mtime, mtime)
    await rename(join(root, 'swap.csv'), path)
    expect((await failureOf(writes.allow(path, 'results', token))).code).toBe('conflict')
    expect((await failureOf(writes.allow(path, 'results', 'made-up'))).code).toBe('conflict')
  })

  it('takes a token for ten minutes, not a moment longer', async () => {
    const path = join(root, 'old.csv')
    await writeFile(path, 'old')
    let token = await tokenFor(path)
    now += TEN_MINUTES - 1
    expect(await writes.allow(path, 'results', token)).toEqual({ path, replaces: true })
    token = await tokenFor(path)
    now += TEN_MINUTES
    expect((await failureOf(writes.allow(path, 'results', token))).code).toBe('conflict')
  })

  it('refuses a link, a folder, anything but a regular file, and the data folder', async () => {
    await writeFile(join(root, 'target.csv'), 'x')
    await symlink(join(root, 'target.csv'), join(root, 'link.csv'))
    await symlink(join(root, 'nowhere.csv'), join(root, 'dangling.csv'))
    await mkdir(join(root, 'folder'))
    execFileSync('mkfifo', [join(root, 'pipe')])
    for (const path of [join(root, 'link.csv'), join(root, 'dangling.csv')]) {
      expect(await failureOf(writes.allow(path, 'results', undefined, true))).toMatchObject({ code: 'refused', details: { path } })
    }
    expect(await failureOf(writes.allow(join(root, 'folder'), 'results', undefined, true))).toMatchObject({
      code: 'file_io',
      message: `${join(root, 'folder')} is a folder, not a file.`,
      details: { path: join(root, 'folder') },
    })
    expect(await failureOf(writes.ask(join(root, 'pipe'), 'results'))).toMatchObject({
      code: 'file_io',
      details: { path: join(root, 'pipe') },
    })
    expect((await failureOf(writes.allow(join(root, 'data', 'x.csv'), 'results', undefined))).code).toBe('refused')
  })
})

describe('a replace token and the path it was given for', () => {
  it('replaces nothing at another path, even a hard link to the same file (same device, inode, size and time)', async () => {
    const root = await tempDir('ec-user-writes-link-')
    const writes = new UserFileWrites(new FileAccessPolicy(null))
    const first = join(root, 'first.csv')
    const second = join(root, 'second.csv')
    await writeFile(first, 'old')
    await link(first, second)
    const error = await failureOf(writes.allow(first, 'results', undefined))
    const token = (error.details as { replaceToken: string }).replaceToken
    expect(await failureOf(writes.allow(second, 'results', token))).toMatchObject({ code: 'conflict', details: { path: second } })
  })
})
