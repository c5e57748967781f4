import { readFileSync } from 'node:fs'
import { visit } from 'jsonc-parser'
import { afterAll, bench, describe } from 'vitest'
import {
  closeDocument,
  loadDocument,
  selectProblemIndex,
  settleTypedText,
  typeText,
  useEditor,
} from '../src-renderer/features/site-editor/state/editor-store'
import { findDuplicateKeys } from '../src-shared/site-config/duplicate-keys'
import type { TextChange } from '../src-shared/site-config/json-text'
import { parseJsonText } from '../src-shared/site-config/json-text'
import { corpusFile } from './lib/corpus-file'
import { describeSpread, interleave, report, spread } from './lib/stats'

// A keystroke in the raw JSON view, in process (the editor's store, no browser): a character typed
// into the last group's name of crewAI's docs.json (2.3 MB) against the same keystroke in a 4.6 kB
// docs.json of the corpus, interleaved. The keystroke is what runs on the key (typeText); the
// settle is what runs before the next frame (for the large text, the change taken in without a parse;
// for the small one nothing left), with the store's commit and the Problems index of the result.
// No docs folder: the folder part is not in it.

const ROUNDS = 21
const LARGE = corpusFile('docsjson', 'crewAIInc__crewAI__docs_docs.json')
const SMALL = corpusFile('docsjson', 'neus__network__mintlify_docs.json')

/** Keys typed after the last group's name opens: each gives the text after it and the change Monaco reports. */
function keystrokes(text: string) {
  const at = text.lastIndexOf('"group": "') + '"group": "'.length
  let typed = 0
  return (): [string, TextChange] => [text.slice(0, at) + 'x'.repeat(++typed) + text.slice(at), { offset: at, removed: 0, inserted: 'x' }]
}

function open(text: string) {
  loadDocument({ documentId: 'bench', path: '/docs/docs.json', baselineText: text, version: null, byteOrderMark: false, rules: 'spec' })
  selectProblemIndex(useEditor.getState())
}

const timed = (work: () => unknown) => async () => {
  const started = performance.now()
  work()
  return performance.now() - started
}

/** jsonc-parser's visitor, which the duplicate-key scan used before: the baseline of the scan. */
const visitorScan = (text: string) => visit(text, { onObjectProperty: () => {} })

function keystrokeCases<Name extends string>(name: Name, text: string): Record<`${Name}Key` | `${Name}Settle`, () => Promise<number>> {
  return {
    [`${name}Key`]: async () => {
      open(text)
      const next = keystrokes(text)
      // The first key after opening finds where the text's strings are (typed-edits.ts): measured is the next.
      const [first, firstChange] = next()
      typeText(first, [firstChange])
      settleTypedText()
      const [typed, change] = next()
      return timed(() => typeText(typed, [change]))()
    },
    [`${name}Settle`]: timed(() => {
      settleTypedText()
      selectProblemIndex(useEditor.getState())
    }),
  } as Record<`${Name}Key` | `${Name}Settle`, () => Promise<number>>
}

const large = readFileSync(LARGE, 'utf8')
const small = readFileSync(SMALL, 'utf8')
const rounds = await interleave(ROUNDS, {
  ...keystrokeCases('large', large),
  ...keystrokeCases('small', small),
  parse: timed(() => parseJsonText(large)),
  scan: timed(() => findDuplicateKeys(large)),
  visitor: timed(() => visitorScan(large)),
})
closeDocument()

afterAll(() => {
  const ms = (values: number[]) => describeSpread(spread(values), 'ms')
  report(`A keystroke in the raw JSON view, in process: ${ROUNDS} interleaved rounds, median (min, max)`, [
    ['crewAI (2.3 MB): on the key', ms(rounds.largeKey), ''],
    ['4.6 kB docs.json: on the key (parsed at once)', ms(rounds.smallKey), ''],
    ['crewAI: before the next frame (the change taken in, commit, Problems index)', ms(rounds.largeSettle), '< 50 ms'],
    ['4.6 kB docs.json: the same, after the key', ms(rounds.smallSettle), ''],
    ['crewAI: parseJsonText (depth check + JSON.parse)', ms(rounds.parse), ''],
    ['crewAI: duplicate-key scan', ms(rounds.scan), ''],
    ['crewAI: jsonc-parser’s visitor, the scan before (baseline)', ms(rounds.visitor), ''],
  ])
})

describe('raw view keystroke', () => {
  bench('reported above, in afterAll', () => {}, { iterations: 1, time: 0 })
})
