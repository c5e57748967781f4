import { afterEach, describe, expect, it, vi } from 'vitest'
import { setField, useEditor } from '../../../src-renderer/features/site-editor/state/editor-store'
import { getIn } from '../../../src-renderer/features/site-editor/state/json-path'
import type * as JsonText from '../../../src-shared/site-config/json-text'
import { scanJsonText } from '../../../src-shared/site-config/json-text'
import { largeDocsJson as large, openDocsJson as open, typeKey as key } from '../../helpers/raw-view-keys'

// The store's whole scans of a text are counted; rescans of a change are not. The mock replaces
// the scanner for the whole module graph, so this file runs in a graph of its own (ISOLATED_TESTS).
vi.mock('../../../src-shared/site-config/json-text', async (importOriginal) => {
  const actual = await importOriginal<typeof JsonText>()
  return { ...actual, scanJsonText: vi.fn(actual.scanJsonText) }
})

describe('a large text in the raw view is scanned from the scan of the text before each key', () => {
  afterEach(() => vi.restoreAllMocks())

  it('break the syntax at the end of the text and mend it, again and again, reading neither the text whole nor its start', () => {
    const text = large('Guides')
    open(text)
    // Opening the document scans it whole: the count below is the store's.
    expect(scanJsonText).toHaveBeenCalledWith(text)
    // A key in a string, taken in without a parse: the scan of the text follows it.
    let current = key(text, { offset: text.indexOf('Guides') + 6, removed: 0, inserted: '!' })
    vi.mocked(scanJsonText).mockClear()
    const parse = vi.spyOn(JSON, 'parse')
    breakAndMendAtTheEnd()
    expect(scanJsonText).not.toHaveBeenCalled()
    expect(parse.mock.calls.filter(([argument]) => String(argument).length > 1000)).toEqual([])
    expect(getIn(useEditor.getState().value, ['navigation', 0, 'group'])).toBe('Guides!')

    // After an edit in the form, the text before the next key is scanned whole once, and no more.
    setField(['name'], 'Acme docs')
    current = useEditor.getState().text
    vi.mocked(scanJsonText).mockClear()
    breakAndMendAtTheEnd()
    expect(vi.mocked(scanJsonText).mock.calls).toEqual([[current]])

    function breakAndMendAtTheEnd() {
      for (let round = 0; round < 3; round++) {
        const broken = key(current, { offset: current.length, removed: 0, inserted: 'x' })
        expect(useEditor.getState().syntaxError).toEqual({
          line: broken.split('\n').length,
          column: 2,
          message: 'expected the end of the text, found the word x (text needs double quotes)',
        })
        current = key(broken, { offset: current.length, removed: 1, inserted: '' })
        expect(useEditor.getState()).toMatchObject({ text: current, syntaxError: null })
      }
    }
  })
})
