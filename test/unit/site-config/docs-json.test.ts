import { readdirSync, readFileSync } from 'node:fs'
import { join } from 'node:path'
import { docsConfigJsonSchema, validateDocsConfig } from '@mintlify/validation'
import Ajv from 'ajv'
import fc from 'fast-check'
import { describe, expect, it } from 'vitest'
import { checkDocsConfig } from '../../../src-shared/site-config/docs-validate'
import { findCorpus } from '../../helpers/corpus'

// docs.json's validator held to Mintlify's own (@mintlify/validation, a dev dependency loaded
// only by tests) on the 121 real files and on thousands of files made from them by one change
// each; and to Mintlify's published JSON Schema, which refuses unknown keys the validator accepts.
const DOCS_JSON = findCorpus('docsjson')
const CORPUS = DOCS_JSON.dir ?? ''
const hasCorpus = DOCS_JSON.dir !== null
const corpus = hasCorpus
  ? readdirSync(CORPUS)
      .sort()
      .map((name) => ({ name, value: JSON.parse(readFileSync(join(CORPUS, name), 'utf8').replace(/^\uFEFF/, '')) as unknown }))
  : []
const MINIMAL = { theme: 'mint', name: 'Acme', colors: { primary: '#0D9373' }, navigation: { pages: ['index'] } }

describe.skipIf(!hasCorpus)(`docs.json verdicts on the shared corpus${DOCS_JSON.skipNote}`, () => {
  it('agree with Mintlify’s validator on every one of the 121 files', () => {
    const differences = corpus
      .filter(({ value }) => checkDocsConfig(value).valid !== validateDocsConfig(structuredClone(value)).success)
      .map(({ name }) => name)
    expect(corpus).toHaveLength(121)
    expect(differences).toEqual([])
    const invalid = corpus.filter(({ value }) => !checkDocsConfig(value).valid).map(({ name }) => name)
    // Four name a theme Mintlify does not have (or none); the fifth holds $ref objects that only
    // resolving them against their files turns into a valid navigation (see refs.test.ts).
    expect(invalid).toEqual([
      'ANcpLua__qyl__docs_docs.json',
      'RuvikGroup__docs-pixelpatrol-mintlify__docs.json',
      'handotdev__docsjson-migration-tests__homepage_docs.json',
      'handotdev__docsjson-migration-tests__koywe_docs.json',
      'mintlify__docs__docs.json',
    ])
  })

  it('agree on 3,000 files made from them by one change each (a value replaced or a key removed)', { timeout: 120_000 }, () => {
    const small = corpus.filter(({ value }) => JSON.stringify(value).length < 60_000)
    const replacements = [
      5,
      'x',
      '',
      ' ',
      true,
      null,
      [],
      {},
      ['a'],
      { a: 1 },
      '#12',
      '#123456',
      'https://example.com',
      '/path',
      'fa-book',
      'en',
      'mint',
      'http://x.y/a.svg',
      -1,
    ]
    const places = (value: unknown, at: (string | number)[] = [], found: (string | number)[][] = []) => {
      if (at.length) found.push(at)
      if (Array.isArray(value)) value.forEach((item, index) => places(item, [...at, index], found))
      else if (value && typeof value === 'object') for (const [key, child] of Object.entries(value)) places(child, [...at, key], found)
      return found
    }
    let refused = 0
    const disagreements: string[] = []
    fc.assert(
      fc.property(fc.nat(small.length - 1), fc.nat(), fc.nat(replacements.length), (file, place, replacement) => {
        const value = structuredClone(small[file]!.value)
        const all = places(value)
        const path = all[place % all.length]!
        let parent = value as Record<string | number, unknown>
        for (const segment of path.slice(0, -1)) parent = parent[segment] as Record<string | number, unknown>
        const last = path.at(-1)!
        if (replacement === replacements.length) {
          if (Array.isArray(parent)) parent.splice(last as number, 1)
          else delete parent[last]
        } else parent[last] = structuredClone(replacements[replacement])
        const theirs = validateDocsConfig(structuredClone(value)).success
        if (!theirs) refused++
        if (checkDocsConfig(value).valid !== theirs) disagreements.push(`${small[file]!.name} ${path.join('.')}`)
      }),
      { numRuns: 3000, seed: 20261126 },
    )
    expect(disagreements).toEqual([])
    // The changes reach what matters: a good share of the files made are refused.
    expect(refused).toBeGreaterThan(600)
  })

  it('accepts every file Mintlify’s published JSON Schema accepts', () => {
    // The published schema closes every object: it is stricter than Mintlify's validator.
    const ajv = new Ajv({ strict: false, logger: false, unicodeRegExp: false })
    const publishedAccepts = ajv.compile(docsConfigJsonSchema as object)
    const accepted = corpus.filter(({ value }) => publishedAccepts(value))
    expect(accepted.length).toBeGreaterThan(80)
    expect(accepted.filter(({ value }) => !checkDocsConfig(value).valid).map(({ name }) => name)).toEqual([])
  })
})

describe('what Mintlify accepts but leaves out, as warnings', () => {
  it('a tab whose groups are broken: valid, with the reason the tab will show nothing', () => {
    const config = { ...MINIMAL, navigation: { tabs: [{ tab: 'API', groups: [{ group: 5, pages: ['a'] }] }] } }
    expect(validateDocsConfig(structuredClone(config)).success).toBe(true)
    const check = checkDocsConfig(config)
    expect(check.errors).toEqual([])
    expect(check.warnings).toEqual([
      {
        path: 'navigation.tabs[0].groups[0].group',
        message: 'must be a string, not the number 5 (Mintlify accepts the file but leaves the tab “API”’s groups out of the site)',
      },
    ])
  })

  it('an item with a link and groups: the link wins and the groups are named as ignored', () => {
    const config = { ...MINIMAL, navigation: { anchors: [{ anchor: 'Blog', href: 'https://blog.example.com', pages: ['post'] }] } }
    expect(checkDocsConfig(config)).toMatchObject({
      valid: true,
      warnings: [
        {
          path: 'navigation.anchors[0].pages',
          message: 'is ignored: Mintlify shows the anchor “Blog”’s link (href) and leaves its pages out',
        },
      ],
    })
  })

  it('mint.json settings left in a docs.json are warnings naming where docs.json keeps them', () => {
    const check = checkDocsConfig({ ...MINIMAL, topbarLinks: [], modeToggle: { default: 'dark' }, colour: 'x' })
    expect(check.valid).toBe(true)
    expect(check.warnings).toEqual([
      { path: 'topbarLinks', message: 'is a mint.json setting: docs.json has it in navbar.links, so Mintlify ignores it here' },
      { path: 'modeToggle', message: 'is a mint.json setting: docs.json has it in appearance, so Mintlify ignores it here' },
      { path: 'colour', message: 'is not a docs.json setting (did you mean "colors"?): Mintlify ignores it' },
    ])
  })

  it('what Mintlify refuses is an error with a sentence: a theme it lacks, a key in a closed object, a group without a name', () => {
    const check = checkDocsConfig({
      ...MINIMAL,
      theme: 'venus',
      colors: { primary: '#000', anchors: '#fff' },
      navigation: { groups: [{ pages: ['a'] }] },
    })
    expect(check.valid).toBe(false)
    expect(check.errors).toEqual([
      {
        path: 'theme',
        message: 'must be one of "mint", "maple", "palm", "willow", "linden", "almond", "aspen", "luma" or "sequoia", not "venus"',
      },
      { path: 'colors.anchors', message: expect.any(String) },
      { path: 'navigation.groups[0].group', message: 'is required' },
    ])
  })
})
