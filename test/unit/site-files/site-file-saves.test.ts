import { mkdir, readFile, realpath, rm, symlink, writeFile } from 'node:fs/promises'
import { join } from 'node:path'
import { describe, expect, it } from 'vitest'
import { refPathOf, saveJournalsIn, writeDocumentSet } from '../../../src-main/site-files/site-file-saves'
import { currentVersion, FileAccessPolicy } from '../../../src-main/user-files/file-access'
import { failureOf } from '../../helpers/failure-of'
import { tempDir } from './helpers'

// The save's guards alone, on real files: where a $ref file may be written, and the comparison
// of every file with the disk before any is written.

async function docsFolder() {
  const [dataDir, root] = await Promise.all([tempDir('ec-saves-data-'), tempDir('ec-saves-site-')])
  const path = join(root, 'docs.json')
  await writeFile(path, '{ "navigation": { "$ref": "nav.json" } }\n')
  await writeFile(join(root, 'nav.json'), '{ "pages": [] }\n')
  return { dataDir, root: await realpath(root), path: join(await realpath(root), 'docs.json'), policy: new FileAccessPolicy(dataDir) }
}

describe('where a $ref file is saved', () => {
  it('is its real path inside the document’s folder', async () => {
    const { root, path, policy } = await docsFolder()
    await mkdir(join(root, 'tabs'))
    expect(await refPathOf(policy, path, 'tabs/reference.json')).toBe(join(root, 'tabs', 'reference.json'))
  })

  it('is refused through a link that leads out of the folder, and into the data folder', async () => {
    const { dataDir, root, path, policy } = await docsFolder()
    const elsewhere = await tempDir('ec-saves-elsewhere-')
    await symlink(elsewhere, join(root, 'shared'))
    expect(await failureOf(refPathOf(policy, path, 'shared/nav.json'))).toMatchObject({
      code: 'refused',
      message: 'shared/nav.json is outside the folder of docs.json: a $ref file is saved only there.',
    })
    await symlink(dataDir, join(root, 'data'))
    expect(await failureOf(refPathOf(policy, path, 'data/nav.json'))).toMatchObject({ code: 'refused' })
  })
})

describe('a save of a docs.json with its $ref files', () => {
  const save = async (folder: Awaited<ReturnType<typeof docsFolder>>, refExpected: Awaited<ReturnType<typeof currentVersion>>) => {
    const { dataDir, root, path } = folder
    return writeDocumentSet({
      documentId: 'file-test',
      path,
      text: '{ "navigation": { "$ref": "nav.json" }, "name": "Saved" }\n',
      byteOrderMark: false,
      expectedVersion: (await currentVersion(path))!,
      refs: [
        {
          ref: 'nav.json',
          path: join(root, 'nav.json'),
          text: '{ "pages": ["saved"] }\n',
          byteOrderMark: false,
          expectedVersion: refExpected,
        },
      ],
      journals: saveJournalsIn(dataDir),
    })
  }

  it('writes every file, with the version of each, when none changed since it was read', async () => {
    const folder = await docsFolder()
    const saved = await save(folder, await currentVersion(join(folder.root, 'nav.json')))
    expect(await readFile(folder.path, 'utf8')).toContain('"Saved"')
    expect(await readFile(join(folder.root, 'nav.json'), 'utf8')).toBe('{ "pages": ["saved"] }\n')
    expect(saved.version).toEqual(await currentVersion(folder.path))
    expect(saved.refs).toEqual([
      { ref: 'nav.json', text: '{ "pages": ["saved"] }\n', version: await currentVersion(join(folder.root, 'nav.json')) },
    ])
  })

  it('refuses all of it when a $ref file read as missing is there now, or one read is gone', async () => {
    const appeared = await docsFolder()
    expect(await failureOf(save(appeared, null))).toMatchObject({
      code: 'file_changed_on_disk',
      details: { path: join(appeared.root, 'nav.json') },
    })
    expect(await readFile(join(appeared.root, 'nav.json'), 'utf8')).toBe('{ "pages": [] }\n')

    const gone = await docsFolder()
    const read = await currentVersion(join(gone.root, 'nav.json'))
    await rm(join(gone.root, 'nav.json'))
    expect(await failureOf(save(gone, read))).toMatchObject({ code: 'file_changed_on_disk' })
    expect(await readFile(gone.path, 'utf8')).not.toContain('"Saved"')
  })
})
