import { mkdir, mkdtemp } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { expect, it, vi } from 'vitest'
import { findCorpus } from '../../helpers/corpus'

// The real-file tests depend on this: a missing corpus is never a quiet pass.

it('finds a corpus in the first shared folder that has it', async () => {
  const empty = await mkdtemp(join(tmpdir(), 'ec-corpus-empty-'))
  const shared = await mkdtemp(join(tmpdir(), 'ec-corpus-'))
  await mkdir(join(shared, 'realworld-docsjson/files'), { recursive: true })
  expect(findCorpus('docsjson', {}, [empty, shared])).toEqual({
    name: 'docsjson',
    dir: join(shared, 'realworld-docsjson/files'),
    skipNote: '',
  })
})

it('a missing corpus fails under CI, and is skipped loudly elsewhere or where CI declared it absent', async () => {
  const empty = await mkdtemp(join(tmpdir(), 'ec-corpus-none-'))
  expect(() => findCorpus('mint', { CI: 'true' }, [empty])).toThrow(
    /CI without the real-file corpus: the mint corpus is not in .*ec-corpus-none-/,
  )
  const warn = vi.spyOn(console, 'warn').mockImplementation(() => {})
  const declared = findCorpus('mint', { CI: 'true', EMBED_CONSOLE_NO_CORPUS: '1' }, [empty])
  expect(declared.dir).toBeNull()
  expect(declared.skipNote).toMatch(/^ \(SKIPPED: the mint corpus is not in .*; set EMBED_CONSOLE_SHARED/)
  expect(findCorpus('mint', {}, [empty]).skipNote).toBe(declared.skipNote)
  expect(warn).toHaveBeenCalledWith(expect.stringMatching(/\*\*\* SKIPPED: .*The real-file tests did not run/))
  warn.mockRestore()
})
