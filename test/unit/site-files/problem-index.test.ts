import fc from 'fast-check'
import { describe, expect, it } from 'vitest'
import { labelOf, rememberedLabelOf } from '../../../src-renderer/features/site-editor/state/field-labels'
import { type Path, setIn } from '../../../src-renderer/features/site-editor/state/json-path'
import {
  buildProblemIndex,
  createProblemIndexer,
  type DocsContext,
  JoinedLookups,
  partOf,
  type ProblemIndex,
  type ProblemInputs,
} from '../../../src-renderer/features/site-editor/state/problem-index'
import { docsLookup } from '../../../src-shared/site-config/docs-files'
import { formatProblemPath } from '../../../src-shared/site-config/problem-path'

// The editor's problem index kept from one keystroke to the next answers what an index built anew
// answers, for every path, while the paths a keystroke did not touch keep their very answers.

const TABS = 3
const GROUPS = 4
const PAGES = 5
/** The folder holds the even pages: each odd one is a warning of its group's part. */
const page = (tab: number, group: number, index: number) => `t${tab}/g${group}/p${index}`
const docs: DocsContext = {
  lookup: docsLookup({
    root: '/docs',
    pages: Array.from({ length: TABS * GROUPS * PAGES }, (_, at) => [
      Math.floor(at / (GROUPS * PAGES)),
      Math.floor(at / PAGES) % GROUPS,
      at % PAGES,
    ])
      .filter(([, , index]) => index! % 2 === 0)
      .map(([tab, group, index]) => ({ path: page(tab!, group!, index!), file: `${page(tab!, group!, index!)}.mdx`, title: null })),
    files: [],
    truncated: false,
  }),
  openapi: [],
}

const site = {
  $schema: 'https://mintlify.com/docs.json',
  theme: 'mint',
  name: 'Acme',
  colors: { primary: '#0D9373' },
  navigation: {
    tabs: Array.from({ length: TABS }, (_, tab) => ({
      tab: `Tab ${tab}`,
      groups: Array.from({ length: GROUPS }, (_, group) => ({
        group: `Group ${group}`,
        pages: Array.from({ length: PAGES }, (_, index) => page(tab, group, index)),
      })),
    })),
  },
}

const inputsOf = (value: unknown): ProblemInputs => ({
  value,
  syntaxError: null,
  duplicates: [],
  rules: 'spec',
  docs,
  path: '/docs/docs.json',
})

/** Every path the index has a problem at, and each of their ancestors. */
function pathsOf(index: ProblemIndex): string[] {
  const paths = new Set<string>()
  for (const problem of index.problems)
    for (let depth = 0; depth <= problem.segments.length; depth++) paths.add(formatProblemPath(problem.segments.slice(0, depth)))
  return [...paths]
}

/** An edit as the form makes one: a group's name, a page (to one the folder has or not), the primary colour. */
const edit = fc.oneof(
  fc.record({
    path: fc.tuple(fc.nat(TABS - 1), fc.nat(GROUPS - 1)).map(([tab, group]): Path => ['navigation', 'tabs', tab, 'groups', group, 'group']),
    value: fc.constantFrom('', 'Renamed', 'Group'),
  }),
  fc.record({
    path: fc
      .tuple(fc.nat(TABS - 1), fc.nat(GROUPS - 1), fc.nat(PAGES - 1))
      .map(([tab, group, index]): Path => ['navigation', 'tabs', tab, 'groups', group, 'pages', index]),
    value: fc.tuple(fc.nat(TABS - 1), fc.nat(GROUPS - 1), fc.nat(PAGES - 1)).map(([tab, group, index]) => page(tab, group, index)),
  }),
  fc.record({ path: fc.constant<Path>(['colors', 'primary']), value: fc.constantFrom('#0D9373', 'teal', '') }),
  fc.record({ path: fc.constant<Path>(['name']), value: fc.constantFrom('Acme', 7, null) }),
  // The raw view can move a setting: its value, and the problems of its part, stay as they were.
  fc.constant({ path: null, value: 'moves the first setting last' }),
)

/** The value with its first setting moved last, every setting's value kept. */
function firstSettingLast(value: unknown): unknown {
  const [first, ...rest] = Object.entries(value as Record<string, unknown>)
  return Object.fromEntries([...rest, first!])
}

describe('the problem index kept between keystrokes', () => {
  it('answers every path as an index built anew does, after any edits', () => {
    fc.assert(
      fc.property(fc.array(edit, { minLength: 1, maxLength: 12 }), (edits) => {
        const kept = createProblemIndexer()
        const asked = new Set<string>()
        let value: unknown = site
        for (const { path, value: next } of [{ path: ['name'], value: 'Acme' }, ...edits]) {
          value = path ? setIn(value, path, next) : firstSettingLast(value)
          const index = kept.indexFor(inputsOf(value))
          const fresh = buildProblemIndex(inputsOf(value))
          for (const path of pathsOf(fresh)) asked.add(path)
          // Every path asked so far, those that had problems once included: each is asked, so it is remembered.
          for (const path of asked) {
            expect(index.at.get(path)).toEqual(fresh.at.get(path))
            expect(index.within.get(path)).toEqual(fresh.within.get(path))
          }
          expect(index.problems).toEqual(fresh.problems)
          expect(index.counts).toEqual(fresh.counts)
          expect(index.listed(3)).toEqual(fresh.listed(3))
        }
      }),
      { numRuns: 100 },
    )
  })

  it('keeps the very answer of a path the edit did not touch, and answers the touched one anew', () => {
    const kept = createProblemIndexer()
    const before = kept.indexFor(inputsOf(site))
    const untouched = 'navigation.tabs[2].groups[3].pages[1]'
    const touched = 'navigation.tabs[0].groups[0].pages[1]'
    const untouchedProblems = before.at.get(untouched)
    expect(untouchedProblems).toEqual([expect.objectContaining({ severity: 'warning' })])
    expect(before.at.get(touched)).toBeDefined()
    const groupCounts = before.within.get('navigation.tabs[2].groups[3]')
    // The odd page replaced by one the folder holds: its warning goes, its group's counts change.
    const after = kept.indexFor(inputsOf(setIn(site, ['navigation', 'tabs', 0, 'groups', 0, 'pages', 1], page(0, 0, 0))))
    expect(after.at.get(untouched)).toBe(untouchedProblems)
    expect(after.within.get('navigation.tabs[2].groups[3]')).toBe(groupCounts)
    expect(after.at.get(touched)).toBeUndefined()
    expect(after.within.get('navigation.tabs[0].groups[0]')).toEqual({ errors: 0, warnings: 1, info: 0 })
    // An index replaced since answers from its own parts, not from what the later one remembers.
    expect(before.at.get(touched)).toEqual([expect.objectContaining({ severity: 'warning' })])
  })

  it('lists the first problems to fix without the information, errors first', () => {
    const index = buildProblemIndex(inputsOf(setIn(site, ['colors', 'primary'], 'teal')))
    const { toFix, info } = index.listed(4)
    expect(toFix).toHaveLength(4)
    expect(toFix[0]).toMatchObject({ severity: 'error', path: 'colors.primary' })
    expect(toFix.slice(1).every((problem) => problem.severity === 'warning')).toBe(true)
    expect(info).toEqual(index.problems.filter((problem) => problem.severity === 'info').slice(0, 4))
    expect(index.listed(1000).toFix).toEqual(index.problems.filter((problem) => problem.severity !== 'info'))
  })

  it('answers a path held by two parts in their new order when the parts trade places', () => {
    const first = partOf([{ path: 'name', message: 'first' }], 'warning')
    const second = partOf([{ path: 'name', message: 'second' }], 'warning')
    const lookups = new JoinedLookups()
    const messages = (parts: Parameters<JoinedLookups['join']>[0]) =>
      lookups
        .join(parts)
        .at.get('name')
        ?.map((problem) => problem.message)
    expect(messages([first, second])).toEqual(['first', 'second'])
    expect(messages([second, first])).toEqual(['second', 'first'])
  })
})

describe('a problem row’s label', () => {
  it('names the place by the names on its path as they are now, read again only when one of them changed', () => {
    const segments: Path = ['navigation', 'tabs', 1, 'groups', 2, 'pages', 0]
    const said = rememberedLabelOf(segments, site)
    expect(said).toBe('Navigation › Tab 2 “Tab 1” › Group 3 “Group 2” › Page 1')
    // Another tab renamed: nothing on this path changed.
    expect(rememberedLabelOf(segments, setIn(site, ['navigation', 'tabs', 0, 'tab'], 'Start'))).toBe(said)
    const renamed = setIn(site, ['navigation', 'tabs', 1, 'groups', 2, 'group'], 'Calls')
    expect(rememberedLabelOf(segments, renamed)).toBe('Navigation › Tab 2 “Tab 1” › Group 3 “Calls” › Page 1')
    expect(rememberedLabelOf(segments, setIn(renamed, ['navigation', 'tabs', 1, 'tab'], 'API'))).toBe(
      labelOf(segments, setIn(renamed, ['navigation', 'tabs', 1, 'tab'], 'API')),
    )
    expect(rememberedLabelOf(segments, setIn(site, ['navigation', 'tabs', 1], undefined))).toBe(
      labelOf(segments, setIn(site, ['navigation', 'tabs', 1], undefined)),
    )
  })
})
