import { copyFile, readdir, readFile } from 'node:fs/promises'
import { join } from 'node:path'
import fc from 'fast-check'
import { describe, expect, it } from 'vitest'
import { appendItem, getIn, moveItem, removeItem, setIn } from '../../../src-renderer/features/site-editor/state/json-path'
import { parseJsonText } from '../../../src-shared/site-config/json-text'
import {
  applyValueChanges,
  applyValueChangesAtOnce,
  detectTextStyle,
  diffValues,
  editText,
  KeyPositions,
} from '../../../src-shared/site-config/text-edits'
import { findCorpus } from '../../helpers/corpus'
import { siteFiles, tempDir } from '../site-files/helpers'

// "Nothing changes but what was changed": on the real-world-shaped fixtures (tabs, 4 spaces,
// CRLF, a BOM, inline arrays, nested groups, duplicate keys) and on 179 real mint.json files.

const FIXTURES = join(import.meta.dirname, '../../fixtures/site-config/real-world-shaped')
// The shared folder beside the checkout holds the 179 real files; without it these tests are skipped.
const MINT = findCorpus('mint')
const REAL_WORLD = MINT.dir ?? ''

const BOM = '\uFEFF'
const valueOf = (text: string) => {
  const parsed = parseJsonText(text)
  if (!parsed.ok) throw new Error(parsed.error.message)
  return parsed.value as Record<string, unknown>
}

/** The lines that differ, between the common first lines and the common last lines: one hunk, or none. */
function changedLines(before: string, after: string) {
  const a = before.split('\n')
  const b = after.split('\n')
  let prefix = 0
  while (prefix < a.length && prefix < b.length && a[prefix] === b[prefix]) prefix++
  let suffix = 0
  while (suffix < a.length - prefix && suffix < b.length - prefix && a[a.length - 1 - suffix] === b[b.length - 1 - suffix]) suffix++
  return { removed: a.slice(prefix, a.length - suffix), added: b.slice(prefix, b.length - suffix) }
}

async function filesIn(folder: string) {
  const names = (await readdir(folder)).filter((name) => name.endsWith('.json')).sort()
  return Promise.all(names.map(async (name) => ({ name, bytes: await readFile(join(folder, name)) })))
}

const fixtures = await filesIn(FIXTURES)
const realWorld = MINT.dir ? await filesIn(MINT.dir) : []

describe('an unedited save is byte-identical', () => {
  it.each(fixtures.map(({ name }) => name))('%s', async (name) => {
    const [dataDir, workDir] = await Promise.all([tempDir('ec-fp-data-'), tempDir('ec-fp-work-')])
    const path = join(workDir, name)
    await copyFile(join(FIXTURES, name), path)
    const service = siteFiles(dataDir)
    const document = await service.open(path)
    await service.save({
      documentId: document.documentId,
      text: document.text,
      byteOrderMark: document.byteOrderMark,
      expectedVersion: document.version!,
    })
    expect(await readFile(path)).toEqual(await readFile(join(FIXTURES, name)))
  })

  it.runIf(realWorld.length > 0)(`for all 179 real mint.json files${MINT.skipNote}`, async () => {
    const [dataDir, workDir] = await Promise.all([tempDir('ec-fp-data-'), tempDir('ec-fp-work-')])
    const service = siteFiles(dataDir)
    let identical = 0
    for (const { name, bytes } of realWorld) {
      const path = join(workDir, name)
      await copyFile(join(REAL_WORLD, name), path)
      const document = await service.open(path)
      await service.save({
        documentId: document.documentId,
        text: document.text,
        byteOrderMark: document.byteOrderMark,
        expectedVersion: document.version!,
      })
      if ((await readFile(path)).equals(bytes)) identical++
    }
    expect(realWorld).toHaveLength(179)
    expect(identical).toBe(179)
  })
})

describe('a one-field edit is a one-hunk diff in the file’s own layout', () => {
  const textOf = (bytes: Buffer) => bytes.toString('utf8').replace(/^\uFEFF/, '')
  const editable = fixtures.filter(({ name }) => name !== 'duplicate-keys.json')

  it.each(editable.map(({ name, bytes }) => [name, textOf(bytes)] as const))(
    '%s: renaming the site changes its one line',
    (_name, text) => {
      const value = valueOf(text)
      const edited = editText(text, value, setIn(value, ['name'], 'Renamed docs'))
      const { removed, added } = changedLines(text, edited)
      expect(removed).toHaveLength(1)
      expect(added).toEqual([removed[0]!.replace(/"name": "[^"]*"/, '"name": "Renamed docs"')])
      expect(valueOf(edited)).toEqual({ ...value, name: 'Renamed docs' })
    },
  )

  it('keeps tabs, CRLF and 4 spaces when a setting is added', async () => {
    for (const [name, line] of [
      ['tabs.json', '\t"backgroundImage": "/new.svg"'],
      ['crlf.json', '  "backgroundImage": "/new.svg"\r'],
      ['four-spaces.json', '    "backgroundImage": "/new.svg"'],
    ] as const) {
      const text = textOf(fixtures.find((fixture) => fixture.name === name)!.bytes)
      const value = valueOf(text)
      const key = 'backgroundImage'
      const edited = editText(text, value, setIn(value, [key], '/new.svg'))
      expect(edited.split('\n')).toContain(line)
      expect(valueOf(edited)[key]).toBe('/new.svg')
      expect(detectTextStyle(edited)).toEqual(detectTextStyle(text))
    }
  })

  it('keeps an inline array inline, and the spaces and blank line after it', () => {
    const text = textOf(fixtures.find((fixture) => fixture.name === 'inline-arrays.json')!.bytes)
    const value = valueOf(text)
    const added = editText(text, value, appendItem(value, ['navigation', 0, 'pages'], 'faq'))
    expect(changedLines(text, added)).toEqual({
      removed: ['    {"group": "Start", "pages": ["introduction", "quickstart"]},'],
      added: ['    {"group": "Start", "pages": ["introduction", "quickstart", "faq"]},'],
    })
    const removed = editText(text, value, removeItem(value, ['versions'], 0, true))
    expect(changedLines(text, removed)).toEqual({ removed: ['  "versions": ["v1", "v2"],'], added: ['  "versions": ["v2"],'] })
    expect(added).toContain('"icon": "newspaper"}],   \n\n')
  })

  it('keeps 2.50, 1e3 and the byte order mark’s file untouched around an edit', () => {
    const text = textOf(fixtures.find((fixture) => fixture.name === 'bom.json')!.bytes)
    const value = valueOf(text)
    const edited = editText(text, value, setIn(value, ['navigation', 0, 'group'], 'Begin'))
    expect(edited).toContain('"width": 2.50,\n  "ratio": 1e3\n')
    expect(changedLines(text, edited).removed).toEqual(['      "group": "Start",'])
    expect(text.startsWith(BOM)).toBe(false)
  })

  it('moves a group as its own text: the moved lines keep their layout, nothing else changes', () => {
    const text = textOf(fixtures.find((fixture) => fixture.name === 'inline-arrays.json')!.bytes)
    const value = valueOf(text)
    const moved = editText(text, value, moveItem(value, ['navigation'], 1, 0))
    expect(changedLines(text, moved)).toEqual({
      removed: [
        '    {"group": "Start", "pages": ["introduction", "quickstart"]},',
        '    {"group": "API", "pages": ["api/overview", "api/auth"]}',
      ],
      added: [
        '    {"group": "API", "pages": ["api/overview", "api/auth"]},',
        '    {"group": "Start", "pages": ["introduction", "quickstart"]}',
      ],
    })
  })

  it('changes a value inside a nested group without touching the groups around it', () => {
    const text = textOf(fixtures.find((fixture) => fixture.name === 'nested-groups.json')!.bytes)
    const value = valueOf(text)
    const path = ['navigation', 0, 'pages', 1, 'pages', 1, 'pages', 0]
    const edited = editText(text, value, setIn(value, path, 'concepts/deep/two'))
    expect(changedLines(text, edited)).toEqual({
      removed: ['                "concepts/deep/one"'],
      added: ['                "concepts/deep/two"'],
    })
  })

  it('changes the occurrence JSON reads when a key is written twice: the last', () => {
    const twice = '{"a": 1, "a": [2, 3]}'
    expect(editText(twice, { a: [2, 3] }, { a: [2, 4] })).toBe('{"a": 1, "a": [2, 4]}')
    expect(editText(twice, { a: [2, 3] }, { a: 'x' })).toBe('{"a": 1, "a": "x"}')
  })

  it('puts a removed key back where it stood when it is added again', () => {
    const text = textOf(fixtures.find((fixture) => fixture.name === 'tabs.json')!.bytes)
    const value = valueOf(text)
    const positions = new KeyPositions()
    const { favicon: _favicon, ...withoutFavicon } = value
    const cleared = editText(text, value, withoutFavicon, positions)
    const typedAgain = editText(cleared, withoutFavicon, { ...withoutFavicon, favicon: '/favicon.svg' }, positions)
    expect(typedAgain).toBe(text)
  })

  it.runIf(realWorld.length > 0)(
    `on all 179 real files: one-line renames, and additions as one block at the end of the object${MINT.skipNote}`,
    () => {
      let oneHunk = 0
      for (const { bytes } of realWorld) {
        const text = textOf(bytes)
        const value = valueOf(text)
        const renamed = changedLines(text, editText(text, value, setIn(value, ['name'], 'Renamed')))
        const added = editText(text, value, setIn(value, ['x-edited'], { by: 'test' }))
        const addition = changedLines(text, added)
        expect(valueOf(added)).toEqual({ ...value, 'x-edited': { by: 'test' } })
        // The last member gains a comma; the new member's lines follow it.
        if (renamed.removed.length === 1 && renamed.added.length === 1 && addition.removed.length <= 1) oneHunk++
      }
      expect(oneHunk).toBe(179)
    },
  )
})

describe('text edits agree with the values they stand for (property)', () => {
  const key = fc.constantFrom('name', 'favicon', 'logo', 'colors', 'x', 'y y', 'navigation')
  const leaf = fc.oneof(fc.string({ maxLength: 8 }), fc.integer(), fc.boolean(), fc.constant(null))
  const json = fc.letrec((tie) => ({
    value: fc.oneof({ depthSize: 'small' }, leaf, tie('list'), tie('object')),
    list: fc.array(tie('value'), { maxLength: 4 }),
    object: fc.dictionary(key, tie('value'), { maxKeys: 4 }),
  })).object
  const layout = fc.constantFrom<[string | number, string]>([2, '\n'], [4, '\n'], ['\t', '\n'], [2, '\r\n'], [0, '\n'])

  it('an edit anywhere gives text that parses to the edited value, in the file’s layout', () => {
    fc.assert(
      fc.property(json, json, layout, fc.array(fc.nat(), { minLength: 1, maxLength: 6 }), (start, replacement, [indent, eol], picks) => {
        const text = JSON.stringify(start, null, indent).replace(/\n/g, eol)
        const target = pickPath(start, picks)
        const after = setIn(start, target, replacement)
        const edited = editText(text, start, after)
        expect(JSON.parse(edited)).toEqual(after)
        if (diffValues(start, after).length === 0) expect(edited).toBe(text)
        if (eol === '\r\n') expect(edited.replace(/\r\n/g, '')).not.toContain('\n')
      }),
      { numRuns: 400 },
    )
  })
})

describe('the changes applied at once, from one parse, give the text applied one at a time gives (property)', () => {
  const key = fc.constantFrom('name', 'favicon', 'logo', 'colors', 'x', 'y y', 'navigation')
  const leaf = fc.oneof(fc.string({ maxLength: 8 }), fc.integer(), fc.boolean(), fc.constant(null))
  const json = fc.letrec((tie) => ({
    value: fc.oneof({ depthSize: 'small' }, leaf, tie('list'), tie('object')),
    list: fc.array(tie('value'), { maxLength: 5 }),
    object: fc.dictionary(key, tie('value'), { maxKeys: 5 }),
  })).object
  const layout = fc.constantFrom<[string | number, string]>([2, '\n'], [4, '\n'], ['\t', '\n'], [2, '\r\n'], [0, '\n'])
  const edit = fc.tuple(fc.constantFrom('set', 'append', 'remove'), fc.array(fc.nat(), { minLength: 1, maxLength: 5 }), json)

  it('several edits anywhere: keys added and removed, items inserted and removed, values replaced', () => {
    fc.assert(
      fc.property(json, fc.array(edit, { maxLength: 6 }), layout, (start, edits, [indent, eol]) => {
        let after: unknown = start
        for (const [kind, picks, value] of edits) {
          const path = pickPath(after, picks)
          const last = path.at(-1)
          if (kind === 'set') after = setIn(after, path, value)
          else if (kind === 'append') after = Array.isArray(getIn(after, path)) ? appendItem(after, path, value) : setIn(after, path, value)
          else if (typeof last === 'number') after = removeItem(after, path.slice(0, -1), last, false)
          else if (last !== undefined && path.length > 1) after = setIn(after, path, undefined)
        }
        const text = JSON.stringify(start, null, indent).replace(/\n/g, eol)
        const changes = diffValues(start, after)
        const once = applyValueChangesAtOnce(text, changes)
        expect(once).toBe(applyValueChanges(text, changes))
        expect(JSON.parse(once)).toEqual(after)
      }),
      { numRuns: 2000 },
    )
  })

  it('a whole new value, with a key remembered where it stood', () => {
    fc.assert(
      fc.property(json, json, layout, (start, after, [indent, eol]) => {
        const text = JSON.stringify(start, null, indent).replace(/\n/g, eol)
        const positions = () => {
          const remembered = new KeyPositions()
          remembered.remember([], 'name', ['x', 'name', 'logo'])
          return remembered
        }
        const changes = diffValues(start, after)
        expect(applyValueChangesAtOnce(text, changes, positions())).toBe(applyValueChanges(text, changes, positions()))
      }),
      { numRuns: 1000 },
    )
  })
})

/** A path into `value` chosen by `picks`: existing keys and indexes, and one step past them at times. */
function pickPath(value: unknown, picks: number[]): (string | number)[] {
  const path: (string | number)[] = []
  let node = value
  for (const pick of picks) {
    if (Array.isArray(node) && node.length) {
      const index = pick % node.length
      path.push(index)
      node = node[index]
    } else if (node && typeof node === 'object' && Object.keys(node).length) {
      const keys = Object.keys(node)
      const name = pick % (keys.length + 1) === keys.length ? `new${pick}` : keys[pick % keys.length]!
      path.push(name)
      node = (node as Record<string, unknown>)[name]
    } else break
  }
  return path
}
