import { readdirSync, readFileSync } from 'node:fs'
import { join } from 'node:path'
import { describe, expect, it } from 'vitest'
import { checkConfig } from '../../../src-shared/site-config/config-check'
import { detectConfigFormat } from '../../../src-shared/site-config/config-format'
import { checkDocsConfig, type DocsCheckCache } from '../../../src-shared/site-config/docs-validate'
import { locateInFiles, type RefFile, refsIn, resolveRefs } from '../../../src-shared/site-config/refs'
import { applyValueChanges, diffValues } from '../../../src-shared/site-config/text-edits'
import { findCorpus } from '../../helpers/corpus'

const DOCS_JSON = findCorpus('docsjson')
const CORPUS = DOCS_JSON.dir ?? ''
const hasCorpus = DOCS_JSON.dir !== null
const MINIMAL = { theme: 'mint', name: 'Acme', colors: { primary: '#0D9373' }, navigation: { pages: ['index'] } }
const files = (entries: Record<string, unknown>) =>
  new Map<string, RefFile>(Object.entries(entries).map(([path, value]) => [path, { ok: true, value }]))

describe('the format of a file', () => {
  it('is told by its shape first, then its $schema, then its name', () => {
    expect(detectConfigFormat({ $schema: 'https://mintlify.com/schema.json', navigation: {} }, 'mint.json')).toBe('docs')
    expect(detectConfigFormat({ $schema: 'https://mintlify.com/docs.json', navigation: [] }, 'docs.json')).toBe('mint')
    expect(detectConfigFormat({ $schema: 'https://mintlify.com/docs.json' }, 'mint.json')).toBe('docs')
    expect(detectConfigFormat({ $schema: 'https://mintlify.com/schema.json' }, 'docs.json')).toBe('mint')
    expect(detectConfigFormat({ name: 'x' }, '/repo/docs/docs.json')).toBe('docs')
    expect(detectConfigFormat({ name: 'x' }, 'C:\\repo\\mint.json')).toBe('mint')
    expect(detectConfigFormat({ navigation: { groups: [] } }, null)).toBe('docs')
    expect(detectConfigFormat({ theme: 'maple', name: 'x' }, 'config.json')).toBe('docs')
    expect(detectConfigFormat({ name: 'x', navigation: [] }, null)).toBe('mint')
    expect(detectConfigFormat('text', null)).toBe('mint')
  })

  it.skipIf(!hasCorpus)(`is docs.json for all 121 real docs.json files, and site for the template${DOCS_JSON.skipNote}`, () => {
    const found = readdirSync(CORPUS).map((name) =>
      detectConfigFormat(JSON.parse(readFileSync(join(CORPUS, name), 'utf8').replace(/^\uFEFF/, '')), name.replace(/^.*__/, '')),
    )
    expect(found.filter((format) => format !== 'docs')).toEqual([])
  })
})

describe('$ref', () => {
  const main = {
    ...MINIMAL,
    navigation: {
      languages: [
        { $ref: 'fr.json', language: 'fr' },
        { language: 'en', pages: ['index'] },
      ],
    },
    redirects: { $ref: 'config/redirects.json' },
  }
  const loaded = files({
    'fr.json': { language: 'de', tabs: [{ $ref: 'tabs/api.json' }] },
    'tabs/api.json': { tab: 'API', pages: ['api/users'] },
    'config/redirects.json': [{ source: '/a', destination: '/b' }],
  })

  it('resolves as Mintlify does: siblings over the file, nested refs from the file that names them', () => {
    const { value, sites, problems } = resolveRefs(main, loaded)
    expect(problems).toEqual([])
    expect((value as typeof MINIMAL & { navigation: { languages: unknown[] }; redirects: unknown }).navigation.languages[0]).toEqual({
      language: 'fr',
      tabs: [{ tab: 'API', pages: ['api/users'] }],
    })
    expect((value as { redirects: unknown }).redirects).toEqual([{ source: '/a', destination: '/b' }])
    expect(sites.map((site) => site.file).sort()).toEqual(['config/redirects.json', 'fr.json', 'tabs/api.json'])
    expect(refsIn(main)).toEqual(['fr.json', 'config/redirects.json'])
    expect(checkConfig(main, { format: 'docs', rules: 'spec', refs: loaded }).valid).toBe(true)
  })

  it('locates every resolved place in the file it is written in', () => {
    const { sites } = resolveRefs(main, loaded)
    expect(locateInFiles(['navigation', 'languages', 0, 'tabs', 0, 'pages', 0], sites)).toEqual({
      file: 'tabs/api.json',
      path: ['pages', 0],
    })
    expect(locateInFiles(['navigation', 'languages', 0, 'language'], sites)).toEqual({
      file: null,
      path: ['navigation', 'languages', 0, 'language'],
    })
    expect(locateInFiles(['navigation', 'languages', 0, 'tabs'], sites)).toEqual({ file: 'fr.json', path: ['tabs'] })
    // Removing the tab that is a $ref removes the $ref object, where it is written.
    expect(locateInFiles(['navigation', 'languages', 0, 'tabs', 0], sites, { node: true })).toEqual({ file: 'fr.json', path: ['tabs', 0] })
    expect(locateInFiles(['navigation', 'languages', 1, 'pages', 0], sites)).toEqual({
      file: null,
      path: ['navigation', 'languages', 1, 'pages', 0],
    })
  })

  it('says why a $ref cannot be followed, and judges nothing under it', () => {
    const outside = {
      ...MINIMAL,
      navigation: { tabs: [{ $ref: '../secrets.json' }, { $ref: 'missing.json' }, { $ref: 'loop.json' }, { $ref: 'broken.json' }] },
    }
    const check = checkConfig(outside, {
      format: 'docs',
      rules: 'spec',
      refs: new Map<string, RefFile>([
        ['loop.json', { ok: true, value: { $ref: 'loop.json' } }],
        ['broken.json', { ok: false, reason: 'is not valid JSON (line 1, column 3)' }],
      ]),
    })
    expect(check.valid).toBe(false)
    expect(check.errors).toEqual([
      { path: 'navigation.tabs[0].$ref', message: 'points outside the docs folder (../secrets.json): Mintlify refuses it' },
      { path: 'navigation.tabs[1].$ref', message: 'names missing.json, which is not in the docs folder' },
      { path: 'navigation.tabs[2].$ref', message: 'goes round: loop.json → loop.json' },
      { path: 'navigation.tabs[3].$ref', message: 'names broken.json, which is not valid JSON (line 1, column 3)' },
    ])
    expect(refsIn(outside)).toEqual(['missing.json', 'loop.json', 'broken.json'])
  })
})

describe('$ref fan-out', () => {
  // docs.json names a.json 100 times, a.json names b.json 100 times: 10,000 copies of b.json's
  // 41 values, past the cap of 250,000; at 1,000 × 1,000 the same three small files are billions.
  const fanOut = (count: number) => ({
    document: { ...MINIMAL, navigation: { groups: Array.from({ length: count }, () => ({ $ref: 'a.json' })) } },
    refs: files({
      'a.json': { group: 'A', pages: Array.from({ length: count }, () => ({ $ref: 'b.json' })) },
      'b.json': { group: 'B', pages: Array.from({ length: 39 }, (_, index) => `page-${index}`) },
    }),
  })

  it('stops at its cap with one sentence naming the cap and the chain, and judges nothing it did not follow', () => {
    const { document, refs } = fanOut(100)
    const resolved = resolveRefs(document, refs)
    // A copy of a.json holds 203 values and its 100 copies of b.json 42 each: 4,403 a group. 250,000
    // values hold 56 groups and the first 76 copies of b.json in the 57th; the 77th would cross.
    expect(resolved.sites.filter((site) => site.file === 'b.json')).toHaveLength(56 * 100 + 76)
    expect(resolved.problems).toEqual([
      {
        path: 'navigation.groups[56].pages[76].$ref',
        at: ['navigation', 'groups', 56, 'pages', 76, '$ref'],
        message:
          'names b.json, which would take the document past 250,000 values or 10 MB of JSON (docs.json → a.json → b.json): $ref files are followed up to that much in all, so it is not followed, nor 66 more after it',
      },
    ])
    expect(resolved.unfollowed).toHaveLength(23 + 43)
    const check = checkConfig(document, { format: 'docs', rules: 'spec', refs })
    expect(check.valid).toBe(false)
    // The refs left as written are not judged as groups without a name.
    expect(check.errors.map((error) => error.path)).toEqual(['navigation.groups[56].pages[76].$ref'])
  })

  it('counts characters too: a few large files reach the cap long before their values do', () => {
    const large = 'x'.repeat(1_000_000)
    const resolved = resolveRefs(
      { ...MINIMAL, navigation: { pages: Array.from({ length: 12 }, () => ({ $ref: 'large.json' })) } },
      files({ 'large.json': large }),
    )
    expect(resolved.sites).toHaveLength(9)
    expect(resolved.problems[0]!.message).toMatch(
      /^names large\.json, which would take the document past 250,000 values or 10 MB of JSON \(docs\.json → large\.json\)/,
    )
    expect(resolved.unfollowed).toHaveLength(2)
  })
})

describe.skipIf(!hasCorpus)(`the shared corpus in the editor’s terms${DOCS_JSON.skipNote}`, () => {
  const corpus = hasCorpus
    ? readdirSync(CORPUS)
        .sort()
        .map((name) => ({ name, text: readFileSync(join(CORPUS, name), 'utf8') }))
    : []

  it('a one-field edit changes one line of every file, whatever its layout', () => {
    const changedLines: string[] = []
    for (const { name, text } of corpus) {
      const value = JSON.parse(text.replace(/^\uFEFF/, '')) as { name: string }
      const edited = applyValueChanges(text, diffValues(value, { ...value, name: `${value.name} (edited)` }), undefined, { unique: true })
      const before = text.split('\n')
      const after = edited.split('\n')
      const differing = before.filter((line, index) => line !== after[index]).length
      if (after.length !== before.length || differing !== 1) changedLines.push(`${name}: ${differing} lines`)
      expect(JSON.parse(edited.replace(/^\uFEFF/, ''))).toEqual({ ...value, name: `${value.name} (edited)` })
    }
    expect(changedLines).toEqual([])
  })

  it('the check keeps what did not change: one key changed, the same answer as a check from scratch', () => {
    for (const { text } of corpus) {
      const value = JSON.parse(text.replace(/^\uFEFF/, '')) as Record<string, unknown>
      const cache: DocsCheckCache = new Map()
      checkDocsConfig(value, cache)
      const changed = { ...value, colors: { primary: 'teal' }, name: '' }
      expect(checkDocsConfig(changed, cache)).toEqual(checkDocsConfig(changed))
      expect(checkDocsConfig(value, cache)).toEqual(checkDocsConfig(value))
    }
  })
})
