import { readdir, readFile, writeFile } from 'node:fs/promises'
import { join } from 'node:path'
import { describe, expect, it } from 'vitest'
import { findCorpus } from '../../helpers/corpus'
import { tempDir } from './helpers'
import { type Said, threeAnswers } from './one-answer-helpers'

// The editor, the CLI and the export give the same problems on real docs.json files of the shared
// corpus, each in a folder without its pages. Three full diagnoses per file cost seconds under
// load, so the suite compares a sample spread over the sorted corpus, its largest file (crewAI's,
// 2.3 MB) always in it; EMBED_CONSOLE_FULL_CORPUS=1 compares all 121.
const DOCS_JSON = findCorpus('docsjson')
const CREWAI = 'crewAIInc__crewAI__docs_docs.json'
const EVERY = process.env.EMBED_CONSOLE_FULL_CORPUS === '1' ? 1 : 15

const count = (problems: Said[], severity: string) => problems.filter((problem) => problem.severity === severity).length

describe.skipIf(!DOCS_JSON.dir)(`one answer from the editor, the CLI and the export${DOCS_JSON.skipNote}`, () => {
  it(
    `on every ${EVERY === 1 ? '' : `${EVERY}th `}docs.json of the shared corpus and its largest, in a folder without its pages`,
    { timeout: 600_000 },
    async () => {
      const names = (await readdir(DOCS_JSON.dir!)).sort()
      expect(names).toHaveLength(121)
      const sample = names.filter((name, index) => index % EVERY === 0 || name === CREWAI)
      let warnings = 0
      for (const name of sample) {
        const root = await tempDir('ec-one-answer-')
        await writeFile(join(root, 'docs.json'), await readFile(join(DOCS_JSON.dir!, name)))
        const { cli, exported, editor } = await threeAnswers(root)
        expect(exported, name).toEqual(cli)
        expect(editor, name).toEqual(cli)
        warnings += count(cli, 'warning')
        if (name === CREWAI) {
          // The crewAI file without its pages: the same counts in the editor as in validate, every page named.
          expect([count(editor, 'error'), count(editor, 'warning')]).toEqual([count(cli, 'error'), count(cli, 'warning')])
          expect(count(editor, 'warning')).toBeGreaterThan(22_992)
        }
      }
      // The folder part is there in all three: the crewAI file alone names 22,992 pages that are not.
      expect(warnings).toBeGreaterThan(23_000)
    },
  )
})
