import { describe, expect, it } from 'vitest'
import {
  canDrop,
  childListOf,
  contentLists,
  dropPlace,
  EXPAND_ALL_UP_TO,
  expandedByDefault,
  firstItemAtTop,
  keyboardMove,
  kindOfList,
  rowName,
  type TreeRow,
  treeRows,
  withRowsAbove,
} from '../../../src-renderer/features/site-editor/form/navigation/nav-rows'
import { findNavigationMatches, MAX_MATCHES } from '../../../src-renderer/features/site-editor/form/navigation/navigation-search'

// The navigation editors' own logic, without a browser: the docs.json tree's rows, which open by
// default, where a row may be dropped or moved; and the site.json/mint.json search.

const NAVIGATION = {
  tabs: [
    {
      tab: 'Guides',
      groups: [{ group: 'Get started', pages: ['index', 'quickstart', { group: 'In depth', pages: ['guides/deep'] }] }],
    },
    { tab: 'API', href: 'https://api.example.com', groups: [{ group: 'Plants', pages: ['GET /plants', 'POST /plants'] }] },
  ],
}

const ids = (rows: TreeRow[]) => rows.map((row) => row.id)
const rowAt = (rows: TreeRow[], id: string) => rows.find((row) => row.id === id)!

describe('the docs.json tree as rows', () => {
  it('reads a node’s lists in Mintlify’s order, never href, and a group’s pages alone', () => {
    expect(contentLists({ pages: [], groups: [], href: [], anchors: [] }, 'tabs')).toEqual(['anchors', 'groups', 'pages'])
    expect(contentLists({ group: 'A', pages: ['a'], groups: [] }, 'group')).toEqual(['pages'])
    expect(contentLists({ group: 'A' }, 'group')).toEqual([])
    expect(contentLists('page', 'page')).toEqual([])
    expect(contentLists(['not', 'an', 'object'], 'navigation')).toEqual([])
  })

  it('names an item by its list: a division, a group, or in pages a page or a nested group', () => {
    expect(kindOfList('tabs', {})).toBe('tabs')
    expect(kindOfList('menu', {})).toBe('menu')
    expect(kindOfList('groups', 'odd')).toBe('group')
    expect(kindOfList('pages', 'index')).toBe('page')
    expect(kindOfList('pages', { group: 'Nested', pages: [] })).toBe('group')
  })

  it('draws a row for each item, and the rows under an open one only', () => {
    const closed = treeRows(NAVIGATION, new Set())
    expect(ids(closed)).toEqual(['navigation.tabs[0]', 'navigation.tabs[1]'])
    expect(closed[0]).toMatchObject({ kind: 'tabs', depth: 0, list: ['navigation', 'tabs'], index: 0, length: 2, hasChildren: true })

    const open = treeRows(NAVIGATION, new Set(['navigation.tabs[0]', 'navigation.tabs[0].groups[0]']))
    expect(ids(open)).toEqual([
      'navigation.tabs[0]',
      'navigation.tabs[0].groups[0]',
      'navigation.tabs[0].groups[0].pages[0]',
      'navigation.tabs[0].groups[0].pages[1]',
      'navigation.tabs[0].groups[0].pages[2]',
      'navigation.tabs[1]',
    ])
    expect(rowAt(open, 'navigation.tabs[0].groups[0].pages[2]')).toMatchObject({ kind: 'group', depth: 2, hasChildren: true })
    expect(rowAt(open, 'navigation.tabs[0].groups[0].pages[0]')).toMatchObject({ kind: 'page', depth: 2, hasChildren: false })
  })

  it('keeps a row open only under open parents: an open row below a closed one is not drawn', () => {
    expect(ids(treeRows(NAVIGATION, new Set(['navigation.tabs[0].groups[0]'])))).toEqual(['navigation.tabs[0]', 'navigation.tabs[1]'])
  })

  it('opens every row with children in a small tree, and none in one of EXPAND_ALL_UP_TO rows or more', () => {
    expect([...expandedByDefault(NAVIGATION)].sort()).toEqual([
      'navigation.tabs[0]',
      'navigation.tabs[0].groups[0]',
      'navigation.tabs[0].groups[0].pages[2]',
      'navigation.tabs[1]',
      'navigation.tabs[1].groups[0]',
    ])
    const pages = (count: number) => ({ groups: [{ group: 'All', pages: Array.from({ length: count }, (_, index) => `page-${index}`) }] })
    // The group and its pages: one row short of the bound, then at it.
    expect(expandedByDefault(pages(EXPAND_ALL_UP_TO - 2)).size).toBe(1)
    expect(expandedByDefault(pages(EXPAND_ALL_UP_TO - 1)).size).toBe(0)
  })

  it('opens the rows above a place, and only its numbered steps', () => {
    const open = withRowsAbove(new Set(['navigation.tabs[1]']), ['navigation', 'tabs', 0, 'groups', 0, 'pages', 2, 'group'])
    expect([...open].sort()).toEqual([
      'navigation.tabs[0]',
      'navigation.tabs[0].groups[0]',
      'navigation.tabs[0].groups[0].pages[2]',
      'navigation.tabs[1]',
    ])
  })

  it('names a row by its page path or its kind’s label key, and empty otherwise', () => {
    expect(rowName('guides/setup', 'page')).toBe('guides/setup')
    expect(rowName({ group: 'Start' }, 'page')).toBe('')
    expect(rowName({ tab: 'Guides' }, 'tabs')).toBe('Guides')
    expect(rowName({ item: 'Menu one' }, 'menu')).toBe('Menu one')
    expect(rowName({ group: 3 }, 'group')).toBe('')
  })

  it('adds children to a group’s pages, a division’s pages or groups, or new pages; not beside other lists', () => {
    expect(childListOf({ group: 'A' }, 'group')).toBe('pages')
    expect(childListOf({ tab: 'A', groups: [] }, 'tabs')).toBe('groups')
    expect(childListOf({ tab: 'A', pages: [], groups: [] }, 'tabs')).toBe('groups')
    expect(childListOf({ tab: 'A' }, 'tabs')).toBe('pages')
    expect(childListOf({ tab: 'A', anchors: [] }, 'tabs')).toBeNull()
  })

  it('adds a first item to the top list that holds groups, pages or a division', () => {
    expect(firstItemAtTop({ groups: [{ group: 'A', pages: [] }] })).toEqual({
      list: ['navigation', 'groups'],
      length: 1,
      noun: 'group',
      item: { group: 'New group', pages: [] },
    })
    expect(firstItemAtTop({ pages: [] })).toMatchObject({ list: ['navigation', 'pages'], noun: 'page', item: '' })
    expect(firstItemAtTop({ tabs: [] })).toMatchObject({ noun: 'tab', item: { tab: 'New tab', pages: [] } })
    expect(firstItemAtTop({ global: {} })).toBeNull()
  })
})

describe('moving a docs.json row', () => {
  const all = new Set(['navigation.tabs[0]', 'navigation.tabs[0].groups[0]', 'navigation.tabs[1]', 'navigation.tabs[1].groups[0]'])
  const rows = treeRows({ ...NAVIGATION, tabs: [...NAVIGATION.tabs, { tab: 'More', pages: ['more'] }] }, all)
  const intro = rowAt(rows, 'navigation.tabs[0].groups[0].pages[0]')
  const quickstart = rowAt(rows, 'navigation.tabs[0].groups[0].pages[1]')
  const nested = rowAt(rows, 'navigation.tabs[0].groups[0].pages[2]')
  const plantsPage = rowAt(rows, 'navigation.tabs[1].groups[0].pages[0]')
  const secondPlantsPage = rowAt(rows, 'navigation.tabs[1].groups[0].pages[1]')
  const guidesGroup = rowAt(rows, 'navigation.tabs[0].groups[0]')
  const plantsGroup = rowAt(rows, 'navigation.tabs[1].groups[0]')
  const guidesTab = rowAt(rows, 'navigation.tabs[0]')
  const moreTab = rowAt(rows, 'navigation.tabs[2]')

  it('drops pages and groups among pages, groups among groups, a division among its own kind', () => {
    expect(canDrop(intro, plantsPage)).toBe(true)
    expect(canDrop(nested, plantsPage)).toBe(true)
    expect(canDrop(guidesGroup, plantsGroup)).toBe(true)
    expect(canDrop(guidesGroup, intro)).toBe(true)
    expect(canDrop(guidesTab, moreTab)).toBe(true)
    // Refused: a page among groups, a division among pages or groups, a group among tabs.
    expect(canDrop(intro, plantsGroup)).toBe(false)
    expect(canDrop(guidesTab, intro)).toBe(false)
    expect(canDrop(guidesTab, plantsGroup)).toBe(false)
    expect(canDrop(guidesGroup, moreTab)).toBe(false)
  })

  it('puts a row dropped below its place in its own list after the target, and before it otherwise', () => {
    expect(dropPlace(intro, quickstart)).toEqual({ list: quickstart.list, index: 2 })
    expect(dropPlace(quickstart, intro)).toEqual({ list: intro.list, index: 0 })
    // In another list, it takes the target's place, wherever it came from.
    expect(dropPlace(quickstart, plantsPage)).toEqual({ list: plantsPage.list, index: 0 })
    expect(dropPlace(intro, secondPlantsPage)).toEqual({ list: plantsPage.list, index: 1 })
    expect(dropPlace(intro, plantsGroup)).toBeNull()
  })

  it('moves a row one place up or down with the keyboard, and not past either end of its list', () => {
    expect(keyboardMove(quickstart, 'up')).toEqual({ to: 0, landsAt: 0 })
    expect(keyboardMove(quickstart, 'down')).toEqual({ to: 3, landsAt: 2 })
    expect(keyboardMove(intro, 'up')).toBeNull()
    expect(keyboardMove(nested, 'down')).toBeNull()
  })
})

describe('searching a site.json or mint.json navigation', () => {
  const site = {
    navigation: [
      { group: 'Get started', pages: ['intro', 'setup/install', { group: 'Advanced setup', pages: ['setup/proxy'] }] },
      { group: 'Reference', pages: ['api/users', 42] },
    ],
  }

  it('finds groups, nested ones included, and pages by path, case aside, each with the field it opens', () => {
    expect(findNavigationMatches(site, '  SETUP ')).toEqual([
      { path: ['navigation', 0, 'pages', 1], label: 'setup/install', detail: 'Get started' },
      { path: ['navigation', 0, 'pages', 2, 'group'], label: 'Get started › Advanced setup', detail: 'group' },
      { path: ['navigation', 0, 'pages', 2, 'pages', 0], label: 'setup/proxy', detail: 'Get started › Advanced setup' },
    ])
  })

  it('finds a page by its title in the docs folder, and shows the title with the path', () => {
    const pages = [{ path: 'api/users', title: 'The users endpoint' }]
    expect(findNavigationMatches(site, 'endpoint', pages)).toEqual([
      { path: ['navigation', 1, 'pages', 0], label: 'The users endpoint (api/users)', detail: 'Reference' },
    ])
  })

  it('finds nothing for an empty query or a navigation that is not a list', () => {
    expect(findNavigationMatches(site, '   ')).toEqual([])
    expect(findNavigationMatches({ navigation: { group: 'intro' } }, 'intro')).toEqual([])
  })

  it('stops after the group in which it passes MAX_MATCHES', () => {
    const many = (group: string) => ({ group, pages: Array.from({ length: 30 }, (_, index) => `page-${index}`) })
    const found = findNavigationMatches({ navigation: [many('A'), many('B'), many('C')] }, 'page')
    expect(found.length).toBeGreaterThan(MAX_MATCHES)
    expect(found).toHaveLength(60)
  })
})
