import { spawn } from 'node:child_process'
import { mkdir, readdir, readFile, writeFile } from 'node:fs/promises'
import { join } from 'node:path'
import { describe, expect, it } from 'vitest'
import { recoverFileSets, writeFileSet } from '../../../src-main/storage/file-set'
import { tempDir } from '../site-files/helpers'

// The states a killed writer can leave, laid out as it leaves them, and what the next open makes
// of each; atomic-save-crash.test.ts kills real saves.

const DEAD_PID = 999_999_999

async function interrupted(state: 'prepared' | 'committed', renamed: boolean) {
  const [folder, journals] = await Promise.all([tempDir('ec-set-'), tempDir('ec-set-journals-')])
  await writeFile(join(folder, 'docs.json'), 'old docs')
  await writeFile(join(folder, 'nav.json'), 'old nav')
  const files = ['nav.json', 'docs.json'].map((name) => ({
    path: join(folder, name),
    temporary: join(folder, `.${name}.${DEAD_PID}-0123456789ab.set`),
  }))
  // The first file renamed already (or not), the second still waiting beside its file.
  if (!renamed) await writeFile(files[0]!.temporary, 'new nav')
  else await writeFile(files[0]!.path, 'new nav')
  await writeFile(files[1]!.temporary, 'new docs')
  await writeFile(join(journals, `doc-key.${DEAD_PID}-abc.json`), JSON.stringify({ state, files }))
  return { folder, journals }
}

const contents = async (folder: string) => ({
  names: (await readdir(folder)).sort(),
  docs: await readFile(join(folder, 'docs.json'), 'utf8'),
  nav: await readFile(join(folder, 'nav.json'), 'utf8'),
})

describe('a set of files written as one', () => {
  it('writes every file, leaving neither a journal nor a temporary file', async () => {
    const [folder, journals] = await Promise.all([tempDir('ec-set-'), tempDir('ec-set-journals-')])
    await writeFile(join(folder, 'docs.json'), 'old docs')
    await writeFileSet(
      [
        { path: join(folder, 'nav.json'), data: Buffer.from('new nav') },
        { path: join(folder, 'docs.json'), data: Buffer.from('new docs') },
      ],
      journals,
      'doc-key',
    )
    expect(await contents(folder)).toEqual({ names: ['docs.json', 'nav.json'], docs: 'new docs', nav: 'new nav' })
    expect(await readdir(journals)).toEqual([])
  })

  it('completes a committed set its writer left half renamed, and says so', async () => {
    for (const renamed of [true, false]) {
      const { folder, journals } = await interrupted('committed', renamed)
      expect(await recoverFileSets(journals, 'doc-key')).toEqual([
        { outcome: 'completed', paths: [join(folder, 'nav.json'), join(folder, 'docs.json')] },
      ])
      expect(await contents(folder)).toEqual({ names: ['docs.json', 'nav.json'], docs: 'new docs', nav: 'new nav' })
      expect(await readdir(journals)).toEqual([])
    }
  })

  it('undoes a set that was not committed: the files stay as they were, the temporary files go', async () => {
    const { folder, journals } = await interrupted('prepared', false)
    expect(await recoverFileSets(journals, 'doc-key')).toEqual([
      { outcome: 'undone', paths: [join(folder, 'nav.json'), join(folder, 'docs.json')] },
    ])
    expect(await contents(folder)).toEqual({ names: ['docs.json', 'nav.json'], docs: 'old docs', nav: 'old nav' })
    expect(await readdir(journals)).toEqual([])
  })

  it('leaves alone the set of a writer still running, other documents’ sets, and acts on no journal it did not write', async () => {
    const { folder, journals } = await interrupted('committed', false)
    const alive = spawn(process.execPath, ['-e', 'setTimeout(() => {}, 30000)'])
    try {
      const mine = await readFile(join(journals, `doc-key.${DEAD_PID}-abc.json`), 'utf8')
      await writeFile(join(journals, `doc-key.${alive.pid}-abc.json`), mine)
      await writeFile(join(journals, `other-key.${DEAD_PID}-abc.json`), mine)
      // A journal naming a file elsewhere than its temporary file's folder is not this code's.
      await mkdir(join(folder, 'elsewhere'))
      await writeFile(
        join(journals, `doc-key.${DEAD_PID}-def.json`),
        JSON.stringify({
          state: 'committed',
          files: [{ path: join(folder, 'elsewhere', 'x.json'), temporary: join(folder, `.x.json.${DEAD_PID}-0123456789ab.set`) }],
        }),
      )
      expect((await recoverFileSets(journals, 'doc-key')).map((set) => set.outcome)).toEqual(['completed'])
      expect((await readdir(journals)).sort()).toEqual([`doc-key.${alive.pid}-abc.json`, `other-key.${DEAD_PID}-abc.json`])
      expect(await readdir(join(folder, 'elsewhere'))).toEqual([])
    } finally {
      alive.kill()
    }
  })
})
