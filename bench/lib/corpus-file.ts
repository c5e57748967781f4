import { existsSync } from 'node:fs'
import { join } from 'node:path'
import { type CorpusName, findCorpus } from '../../test/helpers/corpus'

/**
 * A file of a real-file corpus, found where the tests find it (test/helpers/corpus.ts: EMBED_CONSOLE_SHARED, or `shared/`
 * beside the checkout). A benchmark without its data fails, naming the file: it never reports figures of nothing.
 */
export function corpusFile(name: CorpusName, file: string): string {
  const { dir } = findCorpus(name)
  const path = dir === null ? null : join(dir, file)
  if (path === null || !existsSync(path)) {
    throw new Error(
      `This benchmark has nothing to measure: ${file} is not in the ${name} corpus (EMBED_CONSOLE_SHARED names the shared folder).`,
    )
  }
  return path
}
