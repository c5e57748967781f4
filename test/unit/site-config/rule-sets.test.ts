import { readdir, readFile } from 'node:fs/promises'
import { join } from 'node:path'
import { mintConfigJsonSchema, validateMintConfig as mintlifyValidateMintConfig } from '@mintlify/validation'
import { describe, expect, it } from 'vitest'
import { MintConfigSchema } from '../../../src-shared/site-config/mint-schema'
import { checkMintConfig, checkMintConfigText, validateMintConfig } from '../../../src-shared/site-config/mint-validate'
import {
  FILE_KEYS,
  MINTLIFY_FOOTER_PLATFORMS,
  MINTLIFY_ICON_TYPES,
  MINTLIFY_ONLY_SETTINGS,
} from '../../../src-shared/site-config/rule-sets'
import { mintlifySuggestion } from '../../../src-shared/site-config/rule-suggestion'
import { findCorpus } from '../../helpers/corpus'
import { MINIMAL_CONFIG } from './spec-table'

const FIXTURES = join(import.meta.dirname, '../../fixtures/site-config/real-world-shaped')
// The shared folder beside the checkout holds the 179 real files; without it these tests are skipped.
const MINT = findCorpus('mint')
const REAL_WORLD = MINT.dir ?? ''
const fixture = (name: string) => readFile(join(FIXTURES, name), 'utf8')
const paths = (problems: { path: string }[]) => problems.map((problem) => problem.path)

describe('the two rule sets on the real-world-shaped fixtures', () => {
  it('nested groups, a footer platform beyond the nine and a half background: errors in the spec, fine for Mintlify', async () => {
    const text = await fixture('nested-groups.json')
    const spec = checkMintConfigText(text, 'spec')
    expect(spec.errors).toEqual([
      { path: 'navigation[0].pages[1]', message: 'must be a string, not an object' },
      { path: 'colors.background.dark', message: 'is required' },
      { path: 'footerSocials.telegram', message: expect.stringContaining('is not a supported platform') },
    ])
    const mintlify = checkMintConfigText(text, 'mintlify')
    expect(mintlify).toMatchObject({ valid: true, errors: [], warnings: [] })
    expect(mintlifySuggestion(JSON.parse(text), spec)).toBe(
      'This file is written for Mintlify (2 nested groups; footer platform telegram; a background colour for one mode only): it breaks the spec but follows the Mintlify-compatible rules.',
    )
  })

  it('Mintlify’s own settings are kept and listed as information under both, never as warnings', async () => {
    const text = await fixture('four-spaces.json')
    for (const rules of ['spec', 'mintlify'] as const) {
      const check = checkMintConfigText(text, rules)
      expect(paths(check.info)).toEqual(['colors.anchors', 'topbarCtaButton.style', 'analytics'])
      expect(check.warnings).toEqual([])
    }
    expect(checkMintConfigText(text, 'spec').valid).toBe(false)
    expect(checkMintConfigText(text, 'mintlify').valid).toBe(true)
  })

  it('knows $schema under both rule sets', async () => {
    const text = await fixture('tabs.json')
    expect(checkMintConfigText(text, 'spec')).toMatchObject({ valid: true, warnings: [], info: [] })
    expect(checkMintConfigText(text, 'mintlify')).toMatchObject({ valid: true, warnings: [], info: [] })
    expect(FILE_KEYS).toEqual(['$schema'])
  })

  it('a key written twice is an error at each place under both rule sets, naming both lines', async () => {
    const text = await fixture('duplicate-keys.json')
    for (const rules of ['spec', 'mintlify'] as const) {
      const { valid, errors } = checkMintConfigText(text, rules)
      expect(valid).toBe(false)
      expect(errors.map(({ path, line }) => ({ path, line }))).toEqual([
        { path: 'colors.primary', line: 4 },
        { path: 'colors.primary', line: 5 },
        { path: 'name', line: 2 },
        { path: 'name', line: 13 },
      ])
      expect(errors[0]!.message).toBe(
        'is written twice in the same object (lines 4 and 5): JSON keeps only the last one, so delete the one you do not mean',
      )
    }
  })

  it('checks inside nested groups in compatible mode, at any depth', () => {
    const config = { ...MINIMAL_CONFIG, navigation: [{ group: 'A', pages: [{ group: 'B', pages: [{ group: 'C', pages: [7] }] }] }] }
    expect(checkMintConfig(config, 'mintlify').errors).toEqual([
      { path: 'navigation[0].pages[0].pages[0].pages[0]', message: 'must be a page path, or a nested group with group and pages' },
    ])
    const withUnknown = { ...MINIMAL_CONFIG, navigation: [{ group: 'A', pages: [{ group: 'B', pages: [], colour: 'x', icon: 'book' }] }] }
    const check = checkMintConfig(withUnknown, 'mintlify')
    expect(check.warnings).toEqual([{ path: 'navigation[0].pages[0].colour', message: 'is not a known setting: kept as written' }])
    expect(paths(check.info)).toEqual(['navigation[0].pages[0].icon'])
  })

  it('leaves the spec’s own rules alone: the spec rule set is the validator that was', () => {
    expect(validateMintConfig({ ...MINIMAL_CONFIG, footerSocials: { x: 'https://x.com/acme' } }).valid).toBe(false)
    expect(Object.keys(MintConfigSchema.shape)).not.toContain('$schema')
  })
})

describe('the names, held to @mintlify/validation’s own mint.json schema', () => {
  type JsonSchema = {
    $ref?: string
    properties?: Record<string, JsonSchema>
    items?: JsonSchema
    anyOf?: JsonSchema[]
    enum?: string[]
    additionalProperties?: JsonSchema
    propertyNames?: JsonSchema
  }
  const root = mintConfigJsonSchema as unknown as { definitions: { Schema: JsonSchema } }
  const resolve = (schema: JsonSchema): JsonSchema => {
    if (!schema.$ref) return schema
    let node: unknown = root
    for (const step of schema.$ref.replace(/^#\//, '').split('/')) node = (node as Record<string, unknown>)[step]
    return resolve(node as JsonSchema)
  }
  const objectsAt = (schema: JsonSchema, at: readonly string[]): JsonSchema[] => {
    const here = resolve(schema)
    const options = here.anyOf ? here.anyOf.map(resolve) : [here]
    if (at.length === 0) return options.filter((option) => option.properties)
    const [step, ...rest] = at
    return options.flatMap((option) => {
      const next = step === '*' ? option.items : option.properties?.[step!]
      return next ? objectsAt(next, rest) : []
    })
  }
  const mintlifyNamesAt = (at: readonly string[]) =>
    new Set(objectsAt(root.definitions.Schema, at).flatMap((object) => Object.keys(object.properties!)))

  it.each(MINTLIFY_ONLY_SETTINGS.map(({ at, keys }) => [at.join('.') || '(top level)', at, keys] as const))(
    '%s: every name listed is one of Mintlify’s',
    (_label, at, keys) => {
      const names = mintlifyNamesAt(at)
      expect(names.size).toBeGreaterThan(0)
      for (const key of keys) expect(names).toContain(key)
    },
  )

  it('lists every top-level setting Mintlify knows that the spec does not', () => {
    const spec = new Set([...Object.keys(MintConfigSchema.shape), ...FILE_KEYS])
    const missing = [...mintlifyNamesAt([])].filter((name) => !spec.has(name))
    expect(missing.sort()).toEqual([...MINTLIFY_ONLY_SETTINGS.find((entry) => entry.at.length === 0)!.keys].sort())
  })

  it('has Mintlify’s footer platforms and icon styles', () => {
    const navigationItems = resolve(resolve(root.definitions.Schema.properties!.navigation!).items!)
    expect([...MINTLIFY_ICON_TYPES]).toEqual(navigationItems.properties!.iconType!.enum)
    const socials = resolve(root.definitions.Schema.properties!.footerSocials!)
    const platforms = JSON.stringify(socials)
    for (const platform of MINTLIFY_FOOTER_PLATFORMS) expect(platforms).toContain(`"${platform}"`)
  })
})

describe(`on the 179 real mint.json files${MINT.skipNote}`, async () => {
  const names = (MINT.dir ? await readdir(MINT.dir) : []).filter((name) => name.endsWith('.json'))
  const files = await Promise.all(names.map(async (name) => ({ name, text: await readFile(join(REAL_WORLD, name), 'utf8') })))

  it.runIf(files.length > 0)(
    'valid under each rule set: 49 spec, 173 Mintlify-compatible, and every file Mintlify accepts is accepted',
    () => {
      const counts = { spec: 0, mintlify: 0, mintlifyOwn: 0, info: 0, warnings: 0 }
      const acceptedByMintlifyOnly: string[] = []
      for (const { name, text } of files) {
        const spec = checkMintConfigText(text, 'spec')
        const compatible = checkMintConfigText(text, 'mintlify')
        const own = mintlifyValidateMintConfig(JSON.parse(text.replace(/^\uFEFF/, ''))).success
        counts.spec += Number(spec.valid)
        counts.mintlify += Number(compatible.valid)
        counts.mintlifyOwn += Number(own)
        counts.info += spec.info.length
        counts.warnings += spec.warnings.length
        if (own && !compatible.valid) acceptedByMintlifyOnly.push(name)
        // Whatever the site.json spec (docs/site-json.md) accepts, the compatible rules accept.
        if (spec.valid) expect(compatible.valid).toBe(true)
      }
      expect(files).toHaveLength(179)
      expect(acceptedByMintlifyOnly).toEqual([])
      // 547 "unknown key" warnings before the rule sets: 506 of them Mintlify settings, now information.
      expect(counts).toEqual({ spec: 49, mintlify: 173, mintlifyOwn: 170, info: 506, warnings: 41 })
    },
  )
})
