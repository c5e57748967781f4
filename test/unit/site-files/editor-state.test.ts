import { afterEach, describe, expect, it, vi } from 'vitest'
import {
  closeDocument,
  editValue,
  isUnsaved,
  LARGE_TEXT_LENGTH,
  loadDocument,
  markSaved,
  NO_FRAME_MS,
  redo,
  replaceText,
  selectProblemIndex,
  setField,
  settleTypedText,
  typeText,
  undo,
  undoEntryOf,
  useEditor,
} from '../../../src-renderer/features/site-editor/state/editor-store'
import { getIn, indexAfterMove, moveItem, removeItem, setIn } from '../../../src-renderer/features/site-editor/state/json-path'
import { createProblemIndexer } from '../../../src-renderer/features/site-editor/state/problem-index'
import { applyResolvedChanges, setResolved } from '../../../src-renderer/features/site-editor/state/resolved-edits'
import { formatProblemPath, parseProblemPath } from '../../../src-shared/site-config/problem-path'
import { serializeSiteConfig } from '../../../src-shared/site-config/serialize'

// The site editor's state, which the form and the raw view share: the renderer's own logic,
// tested without a browser.

describe('json paths', () => {
  const config = { name: 'Acme', colors: { primary: '#0D9373' }, navigation: [{ group: 'A', pages: ['a', 'b'] }], 'x-extra': 1 }

  it('keeps a changed key where it was and puts a new one last', () => {
    expect(Object.keys(setIn(config, ['name'], 'Acme docs') as object)).toEqual(['name', 'colors', 'navigation', 'x-extra'])
    expect(Object.keys(setIn(config, ['favicon'], '/f.svg') as object)).toEqual(['name', 'colors', 'navigation', 'x-extra', 'favicon'])
  })

  it('copies only the containers on the path', () => {
    const next = setIn(config, ['navigation', 0, 'pages', 1], 'c') as typeof config
    expect(next.navigation[0]!.pages).toEqual(['a', 'c'])
    expect(next.colors).toBe(config.colors)
    expect(config.navigation[0]!.pages).toEqual(['a', 'b'])
  })

  it('removes a cleared key, and the objects it leaves empty, but never shifts a list', () => {
    expect(setIn(config, ['colors', 'primary'], undefined)).not.toHaveProperty('colors')
    expect(setIn({ api: { auth: { method: 'key' }, maintainOrder: true } }, ['api', 'auth', 'method'], undefined)).toEqual({
      api: { maintainOrder: true },
    })
    expect(setIn(config, ['navigation', 0, 'group'], undefined)).toMatchObject({ navigation: [{ pages: ['a', 'b'] }] })
    expect(setIn(config, ['logo'], undefined)).toBe(config)
  })

  it('creates what is missing on the way', () => {
    expect(setIn({ name: 'x' }, ['api', 'auth', 'name'], 'Authorization')).toEqual({ name: 'x', api: { auth: { name: 'Authorization' } } })
  })

  it('moves and removes list items, following an index through a move', () => {
    expect(getIn(moveItem(config, ['navigation', 0, 'pages'], 1, 0), ['navigation', 0, 'pages'])).toEqual(['b', 'a'])
    expect(removeItem({ versions: ['v1'] }, ['versions'], 0, true)).toEqual({})
    expect(removeItem({ navigation: [{}] }, ['navigation'], 0, false)).toEqual({ navigation: [] })
    expect([0, 1, 2, 3].map((index) => indexAfterMove(index, 1, 3))).toEqual([0, 3, 1, 2])
    expect([0, 1, 2, 3].map((index) => indexAfterMove(index, 3, 0))).toEqual([1, 2, 3, 0])
  })

  it('reads back every problem path the validator writes', () => {
    for (const segments of [[], ['name'], ['navigation', 12, 'pages', 3], ['footerSocials', 'hacker-news'], ['$'], ['a b', 0, 'c"d']]) {
      expect(parseProblemPath(formatProblemPath(segments))).toEqual(segments)
    }
  })
})

describe('the editor store', () => {
  const text = serializeSiteConfig({ name: 'Acme', navigation: [{ group: 'A', pages: ['a'] }] })
  const open = (baselineText = text) =>
    loadDocument({ documentId: 'file-test', path: '/docs/site.json', baselineText, version: null, byteOrderMark: false, rules: 'spec' })
  const name = () => getIn(useEditor.getState().value, ['name'])
  let clock = 0
  const advance = (ms: number) => (clock += ms)

  afterEach(() => {
    vi.restoreAllMocks()
    closeDocument()
  })

  it('keeps text and value in step, and knows what is unsaved', () => {
    open()
    expect(isUnsaved(useEditor.getState())).toBe(false)
    setField(['name'], 'Acme docs')
    expect(useEditor.getState().text).toBe(serializeSiteConfig({ name: 'Acme docs', navigation: [{ group: 'A', pages: ['a'] }] }))
    expect(isUnsaved(useEditor.getState())).toBe(true)
    setField(['name'], 'Acme')
    expect(isUnsaved(useEditor.getState())).toBe(false)
  })

  it('answers "unsaved?" anew when the saved text changes under the same text, and when the text comes back to it', () => {
    open()
    setField(['name'], 'Acme docs')
    const typed = useEditor.getState().text
    // Asked twice for the same strings: the second answer is the first's.
    expect(isUnsaved(useEditor.getState())).toBe(true)
    expect(isUnsaved(useEditor.getState())).toBe(true)
    markSaved({ documentId: 'file-test', path: '/docs/site.json', text: typed, version: { mtimeMs: 3, size: 1, sha256: '0'.repeat(64) } })
    expect(useEditor.getState().text).toBe(typed)
    expect(isUnsaved(useEditor.getState())).toBe(false)
    setField(['name'], 'Acme')
    expect(isUnsaved(useEditor.getState())).toBe(true)
    setField(['name'], 'Acme docs')
    expect(isUnsaved(useEditor.getState())).toBe(false)
  })

  it('makes a burst of typing into one field one undo step, and a pause or another field a new one', () => {
    vi.spyOn(performance, 'now').mockImplementation(() => clock)
    open()
    for (const typed of ['A', 'Ac', 'Acm']) {
      setField(['name'], typed)
      advance(200)
    }
    advance(2000)
    setField(['name'], 'Acme!')
    advance(100)
    setField(['navigation', 0, 'group'], 'B')
    undo()
    expect(getIn(useEditor.getState().value, ['navigation', 0, 'group'])).toBe('A')
    undo()
    expect(name()).toBe('Acm')
    undo()
    expect(name()).toBe('Acme')
    redo()
    expect(name()).toBe('Acm')
  })

  it('says of each edit whether it is an undo step or the next key of the typing before it', () => {
    const typing = { key: 'name', at: 1000 }
    expect(undoEntryOf('name', typing, 1999)).toBe('continues-typing')
    expect(undoEntryOf('name', typing, 2000)).toBe('step')
    expect(undoEntryOf('title', typing, 1100)).toBe('step')
    expect(undoEntryOf(null, typing, 1100)).toBe('step')
    expect(undoEntryOf('name', null, 1100)).toBe('step')
  })

  it('starts a new step with the first key typed after an undo', () => {
    vi.spyOn(performance, 'now').mockImplementation(() => clock)
    open()
    setField(['name'], 'A')
    advance(100)
    setField(['name'], 'Ab')
    undo()
    expect(name()).toBe('Acme')
    advance(100)
    setField(['name'], 'X')
    advance(100)
    setField(['name'], 'XY')
    undo()
    expect(name()).toBe('Acme')
    redo()
    expect(name()).toBe('XY')
  })

  it('undoes form and raw-text changes in one history', () => {
    open()
    setField(['name'], 'From the form')
    replaceText(serializeSiteConfig({ name: 'From the text', navigation: [] }), null)
    undo()
    expect(name()).toBe('From the form')
    undo()
    expect(name()).toBe('Acme')
  })

  it('takes in a large text typed in the raw view before the next frame, keys that came meanwhile together, or at once when the document is used', () => {
    vi.useFakeTimers()
    // The window's frames, drawn when the test says.
    let frames = new Map<number, FrameRequestCallback>()
    let requested = 0
    vi.stubGlobal('requestAnimationFrame', (callback: FrameRequestCallback) => (frames.set(++requested, callback), requested))
    vi.stubGlobal('cancelAnimationFrame', (handle: number) => frames.delete(handle))
    const drawFrame = () => {
      const due = frames
      frames = new Map()
      for (const callback of due.values()) callback(performance.now())
    }
    try {
      const large = (name: string) =>
        serializeSiteConfig({ name, navigation: [{ group: 'A', pages: ['a'] }], 'x-padding': 'x'.repeat(LARGE_TEXT_LENGTH) })
      open(large('Acme'))
      typeText(large('Acme d'))
      typeText(large('Acme do'))
      // Between keys before a frame nothing is taken in: the store still holds the text before the typing.
      vi.advanceTimersByTime(0)
      expect(name()).toBe('Acme')
      drawFrame()
      expect(name()).toBe('Acme do')
      expect(useEditor.getState().text).toBe(large('Acme do'))
      // A hidden window draws no frame: the text is taken in all the same, a moment later.
      typeText(large('Acme d'))
      vi.advanceTimersByTime(NO_FRAME_MS)
      expect(name()).toBe('Acme d')
      typeText(large('Acme do'))
      drawFrame()
      expect(useEditor.getState().text).toBe(large('Acme do'))
      // A form edit (or a save, an undo) first takes in what was typed: nothing typed is lost.
      typeText(large('Acme doc'))
      setField(['navigation', 0, 'group'], 'B')
      expect(name()).toBe('Acme doc')
      expect(getIn(useEditor.getState().value, ['navigation', 0, 'group'])).toBe('B')
      typeText(large('Acme docs'))
      undo()
      expect(name()).toBe('Acme doc')
      // A small text is parsed on the key, as before.
      open()
      typeText(serializeSiteConfig({ name: 'Small', navigation: [] }))
      expect(name()).toBe('Small')
      settleTypedText()
      expect(name()).toBe('Small')
    } finally {
      vi.useRealTimers()
      vi.unstubAllGlobals()
    }
  })

  it('keeps the last valid value while the text does not parse, and refuses form edits meanwhile', () => {
    open()
    replaceText('{ "name": "Bro', null)
    const state = useEditor.getState()
    expect(state.syntaxError).toMatchObject({ line: 1 })
    expect(name()).toBe('Acme')
    editValue((value) => setIn(value, ['name'], 'Lost'))
    expect(useEditor.getState().text).toBe('{ "name": "Bro')
    expect(selectProblemIndex(useEditor.getState()).problems).toEqual([
      expect.objectContaining({ path: '$', severity: 'error', position: { line: 1, column: 11 } }),
    ])
  })

  it('records a save without touching what was typed meanwhile', () => {
    open()
    const sent = '{"name":"Acme","navigation":[]}'
    replaceText(sent, null)
    markSaved({ documentId: 'file-test', path: '/docs/site.json', text: sent, version: { mtimeMs: 1, size: 1, sha256: '0'.repeat(64) } })
    expect(useEditor.getState().text).toBe(sent)
    expect(isUnsaved(useEditor.getState())).toBe(false)
    replaceText('{"name":"Typed after","navigation":[]}', null)
    markSaved({ documentId: 'file-test', path: '/docs/site.json', text: sent, version: { mtimeMs: 2, size: 1, sha256: '0'.repeat(64) } })
    expect(name()).toBe('Typed after')
    expect(isUnsaved(useEditor.getState())).toBe(true)
  })

  it('edits the text in place: the layout of the file stays, and the value follows the text', () => {
    const tabbed = '{\n\t"name": "Acme",\n\t"navigation": [{"group": "A", "pages": ["a"]}],\n\t"width": 2.50\n}'
    open(tabbed)
    setField(['navigation', 0, 'pages', 0], 'intro')
    expect(useEditor.getState().text).toBe(tabbed.replace('["a"]', '["intro"]'))
    editValue((value) => setIn(value, ['favicon'], '/favicon.svg'))
    expect(useEditor.getState().text).toBe(tabbed.replace('["a"]', '["intro"]').replace('2.50\n}', '2.50,\n\t"favicon": "/favicon.svg"\n}'))
    expect(useEditor.getState().value).toEqual(JSON.parse(useEditor.getState().text))
  })

  it('keeps the parts a keystroke did not touch, so the form redraws only the field typed into', () => {
    open()
    const navigation = (useEditor.getState().value as { navigation: unknown }).navigation
    setField(['name'], 'Acme docs')
    expect((useEditor.getState().value as { navigation: unknown }).navigation).toBe(navigation)
  })

  it('keeps the parts a docs.json navigation edit did not touch, its value agreeing with its text', () => {
    const docs = {
      name: 'Acme',
      navigation: {
        tabs: [
          { tab: 'Guides', groups: [{ group: 'Start', pages: ['intro'] }] },
          { tab: 'API', groups: [{ group: 'Calls', pages: ['calls/list'] }] },
        ],
      },
    }
    loadDocument({
      documentId: 'file-docs',
      path: '/docs/docs.json',
      baselineText: `${JSON.stringify(docs, null, 2)}\n`,
      version: null,
      byteOrderMark: false,
      rules: 'spec',
    })
    const before = useEditor.getState().value
    const tab = (value: unknown, index: number) => getIn(value, ['navigation', 'tabs', index])
    const parse = vi.spyOn(JSON, 'parse')
    setResolved(['navigation', 'tabs', 0, 'groups', 0, 'group'], 'First steps', 'navigation.tabs[0].groups[0].group')
    // A string put in place of a string: the value follows without reading the text back.
    expect(parse).not.toHaveBeenCalled()
    parse.mockRestore()
    const after = useEditor.getState().value
    expect(after).toEqual(JSON.parse(useEditor.getState().text))
    expect(getIn(after, ['navigation', 'tabs', 0, 'groups', 0, 'group'])).toBe('First steps')
    expect(tab(after, 1)).toBe(tab(before, 1))
    expect(getIn(after, ['navigation', 'tabs', 0, 'groups', 0, 'pages'])).toBe(
      getIn(before, ['navigation', 'tabs', 0, 'groups', 0, 'pages']),
    )
    expect(tab(after, 0)).not.toBe(tab(before, 0))
    // A value that is not read back as itself (a key left undefined is not written) is read from the text.
    setResolved(['navigation', 'tabs', 1, 'groups', 0], { group: 'Calls', icon: undefined, pages: ['calls/list'] })
    expect(Object.keys(getIn(useEditor.getState().value, ['navigation', 'tabs', 1, 'groups', 0]) as object)).toEqual(['group', 'pages'])
    // Nor is a key typed again where it stood: the value takes its place from the text.
    applyResolvedChanges([{ kind: 'remove', path: ['navigation', 'tabs', 0, 'groups', 0, 'group'] }])
    setResolved(['navigation', 'tabs', 0, 'groups', 0, 'group'], 'Start', 'navigation.tabs[0].groups[0].group')
    expect(Object.keys(getIn(useEditor.getState().value, ['navigation', 'tabs', 0, 'groups', 0]) as object)).toEqual(['group', 'pages'])
  })

  it('puts a cleared field back where it was when it is typed again', () => {
    open(serializeSiteConfig({ name: 'Acme', favicon: '/f.svg', navigation: [] }))
    setField(['favicon'], undefined)
    expect(Object.keys(useEditor.getState().value as object)).toEqual(['name', 'navigation'])
    const navigation = getIn(useEditor.getState().value, ['navigation'])
    setField(['favicon'], '/')
    expect(useEditor.getState().text).toBe(serializeSiteConfig({ name: 'Acme', favicon: '/', navigation: [] }))
    expect(Object.keys(useEditor.getState().value as object)).toEqual(['name', 'favicon', 'navigation'])
    // Read from the text, the value still keeps the parts the edit did not touch.
    expect(getIn(useEditor.getState().value, ['navigation'])).toBe(navigation)
  })

  it('makes a key written twice an error at both places, and keeps the form from editing until one goes', () => {
    const twice = '{\n  "name": "A",\n  "navigation": [],\n  "name": "B"\n}\n'
    open(twice)
    const { problems } = selectProblemIndex(useEditor.getState())
    expect(problems.filter((problem) => problem.severity === 'error')).toEqual([
      expect.objectContaining({ path: 'name', position: { line: 2, column: 3 }, message: expect.stringContaining('lines 2 and 4') }),
      expect.objectContaining({ path: 'name', position: { line: 4, column: 3 }, message: expect.stringContaining('lines 2 and 4') }),
    ])
    setField(['name'], 'C')
    expect(useEditor.getState().text).toBe(twice)
  })

  it('indexes problems by place and counts them under every ancestor', () => {
    open()
    setField(['navigation', 0, 'pages', 0], 42)
    const index = selectProblemIndex(useEditor.getState())
    expect(index.at.get('navigation[0].pages[0]')).toEqual([expect.objectContaining({ severity: 'error' })])
    expect(index.within.get('navigation[0]')).toEqual({ errors: 1, warnings: 0, info: 0 })
    expect(index.counts).toEqual({ errors: 1, warnings: 0, info: 0 })
    // The same content gives the same index: every field's selector shares one validation.
    expect(selectProblemIndex(useEditor.getState())).toBe(index)
  })

  it('keeps each document’s problems to itself: another document loaded, or checked beside it, does not replace them', () => {
    open()
    const first = useEditor.getState().problems
    const before = selectProblemIndex(useEditor.getState())
    // Another indexer (another document) answering in between leaves this one's answer standing.
    const other = createProblemIndexer()
    other.indexFor({ value: { name: 'Other' }, syntaxError: null, duplicates: [], rules: 'spec', docs: null })
    expect(selectProblemIndex(useEditor.getState())).toBe(before)
    open()
    expect(useEditor.getState().problems).not.toBe(first)
  })
})
