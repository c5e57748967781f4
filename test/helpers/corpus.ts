import { existsSync } from 'node:fs'
import { join, resolve } from 'node:path'

/*
 * The real-file corpora (179 mint.json, 121 docs.json) live outside the repository, in the
 * `shared` folder beside the checkout. A test that needs one finds it here, and where it is
 * missing the skip is loud: a warning on standard error naming where it looked, the reason in
 * the test's title, and under CI a failure, unless the CI script itself said the corpus is
 * absent on that machine (EMBED_CONSOLE_NO_CORPUS=1, which .ci/run sets and prints).
 */

export type CorpusName = 'mint' | 'docsjson'

const FOLDERS: Record<CorpusName, string> = { mint: 'realworld/mint', docsjson: 'realworld-docsjson/files' }

/** Where to look for `shared/`, first match wins: the variable, beside the checkout, then the machines' usual place. */
export function sharedCandidates(env: NodeJS.ProcessEnv = process.env): string[] {
  return [env.EMBED_CONSOLE_SHARED, resolve(import.meta.dirname, '../../../shared'), '/work/shared'].filter((dir): dir is string => !!dir)
}

export interface Corpus {
  name: CorpusName
  /** The folder holding the files; null when none of the candidates has it. */
  dir: string | null
  /** For test titles: empty when present, else why the tests are skipped. */
  skipNote: string
}

const warned = new Set<CorpusName>()

export function findCorpus(name: CorpusName, env: NodeJS.ProcessEnv = process.env, sharedDirs = sharedCandidates(env)): Corpus {
  const candidates = sharedDirs.map((dir) => join(dir, FOLDERS[name]))
  const dir = candidates.find((candidate) => existsSync(candidate)) ?? null
  if (dir) return { name, dir, skipNote: '' }
  const reason = `the ${name} corpus is not in ${candidates.join(', ')}; set EMBED_CONSOLE_SHARED to the shared folder`
  if (env.CI === 'true' && env.EMBED_CONSOLE_NO_CORPUS !== '1') {
    throw new Error(
      `CI without the real-file corpus: ${reason}. If this machine truly has none, .ci/run sets EMBED_CONSOLE_NO_CORPUS=1 and says so.`,
    )
  }
  if (!warned.has(name)) {
    warned.add(name)
    console.warn(`\n*** SKIPPED: ${reason}. The real-file tests did not run. ***\n`)
  }
  return { name, dir: null, skipNote: ` (SKIPPED: ${reason})` }
}
