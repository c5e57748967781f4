import { readdirSync, readFileSync } from 'node:fs'
import { join } from 'node:path'
import fc from 'fast-check'
import { describe, expect, it } from 'vitest'
import { setIn } from '../../../src-renderer/features/site-editor/state/json-path'
import { type DivisionKey, DIVISIONS, DocsNavigationSchema } from '../../../src-shared/site-config/docs-schema'
import { checkDocsConfig, type DocsCheckCache, lastNavigationItemsChecked } from '../../../src-shared/site-config/docs-validate'
import { type KnownShape, knownShapeFor, walkExtraKeys } from '../../../src-shared/site-config/known-keys'
import { createNavigationChecker } from '../../../src-shared/site-config/navigation-check'
import { findCorpus } from '../../helpers/corpus'

// The navigation checked item by item must answer exactly what zod answers for the whole value,
// issue for issue and in order; and a keystroke in one group must check a handful of items, not
// the 23,000-page navigation again.
const DOCS_JSON = findCorpus('docsjson')
const corpus = DOCS_JSON.dir
  ? readdirSync(DOCS_JSON.dir)
      .sort()
      .map((name) => ({ name, value: JSON.parse(readFileSync(join(DOCS_JSON.dir!, name), 'utf8').replace(/^\uFEFF/, '')) as unknown }))
  : []
const shape = knownShapeFor(DocsNavigationSchema) as KnownShape
const word = (key: string) => `unknown ${key}`

function wholeAnswer(navigation: unknown) {
  const issues = (DocsNavigationSchema.safeParse(navigation, { reportInput: true }).error?.issues ?? []).map(({ path, code, message }) => ({
    path,
    code,
    message,
  }))
  const extras: { path: PropertyKey[]; message: string }[] = []
  walkExtraKeys(navigation, shape, {
    unknown: (path) => extras.push({ path: [...path], message: word(String(path.at(-1))) }),
    outsideSpec() {},
  })
  return { issues, extras }
}

function partAnswer(navigation: unknown) {
  const check = createNavigationChecker(shape, word).check(navigation)
  return { issues: check.issues.map(({ path, code, message }) => ({ path, code, message })), extras: check.extras }
}

const navigationOf = (value: unknown) => (value as { navigation?: unknown }).navigation

describe('the stand-in items a list is checked with', () => {
  // Each list is validated with one stand-in item in place of its own, which must pass its schema:
  // one that did not would add its issues to every navigation holding such a list.
  const validItem = (list: DivisionKey | 'groups') =>
    list === 'groups' ? { group: 'g', pages: ['p'] } : { [DIVISIONS[list]]: list === 'languages' ? 'fr' : 'n', pages: ['p'] }
  const lists = [...(Object.keys(DIVISIONS) as DivisionKey[]), 'groups' as const]

  it.each(lists)('one valid item in %s answers no issue, as zod does', (list) => {
    // A menu belongs to a tab (or a product), not to the navigation itself.
    const navigation = list === 'menu' ? { tabs: [{ tab: 't', menu: [validItem(list)] }] } : { [list]: [validItem(list)] }
    expect(partAnswer(navigation)).toEqual({ issues: [], extras: [] })
    expect(wholeAnswer(navigation)).toEqual({ issues: [], extras: [] })
  })
})

describe.skipIf(!DOCS_JSON.dir)(`the navigation checked item by item${DOCS_JSON.skipNote}`, () => {
  it('answers what zod answers for the whole navigation, on all 121 real files', () => {
    expect(corpus).toHaveLength(121)
    for (const { name, value } of corpus) expect(partAnswer(navigationOf(value)), name).toEqual(wholeAnswer(navigationOf(value)))
  })

  it('answers what zod answers on 1,500 navigations made from them by one change each', { timeout: 120_000 }, () => {
    const small = corpus.filter(({ value }) => JSON.stringify(navigationOf(value) ?? null).length < 60_000)
    const replacements = [5, 'x', '', true, null, [], {}, ['a'], { a: 1 }, { group: 'g', pages: [] }, { tab: 5 }, [{}], 'en']
    const places = (value: unknown, at: (string | number)[] = [], found: (string | number)[][] = []) => {
      if (at.length) found.push(at)
      if (Array.isArray(value)) value.forEach((item, index) => places(item, [...at, index], found))
      else if (value && typeof value === 'object') for (const [key, child] of Object.entries(value)) places(child, [...at, key], found)
      return found
    }
    fc.assert(
      fc.property(fc.nat(small.length - 1), fc.nat(), fc.nat(replacements.length), (file, place, replacement) => {
        const navigation = structuredClone(navigationOf(small[file]!.value))
        const all = places(navigation)
        if (all.length === 0) return
        const path = all[place % all.length]!
        const changed =
          replacement === replacements.length ? setIn(navigation, path, undefined) : setIn(navigation, path, replacements[replacement])
        expect(partAnswer(changed)).toEqual(wholeAnswer(changed))
      }),
      { numRuns: 1500, seed: 20261128 },
    )
  })

  it('a keystroke in a group name deep in the largest file checks the items above it only, and answers as a fresh check does', () => {
    const largest = corpus.find(({ name }) => name.startsWith('crewAIInc__crewAI'))!.value as Record<string, unknown>
    const cache: DocsCheckCache = new Map()
    checkDocsConfig(largest, cache)
    const path = ['navigation', 'languages', 0, 'versions', 3, 'tabs', 1, 'groups', 0, 'group']
    const typed = setIn(largest, path, 'Getting started x')
    const check = checkDocsConfig(typed, cache)
    // The navigation, the language, the version, the tab and the group: five items of about 1,000.
    expect(lastNavigationItemsChecked()).toBeLessThanOrEqual(6)
    expect(check).toEqual(checkDocsConfig(structuredClone(typed)))
    expect(lastNavigationItemsChecked()).toBeGreaterThan(800)
  })
})
