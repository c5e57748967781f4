import fc from 'fast-check'
import { describe, expect, it } from 'vitest'
import { parseJsonText } from '../../../src-shared/site-config/json-text'
import { validateMintConfig, validateMintConfigText } from '../../../src-shared/site-config/mint-validate'
import { serializeSiteConfig } from '../../../src-shared/site-config/serialize'
import { validMintConfigArbitrary } from '../../fixtures/site-config/mint-config-arbitrary'

// parseJsonText ignores a leading byte order mark; JSON.parse does not.
const parsesAsJson = (text: string) => {
  try {
    JSON.parse(text.replace(/^\uFEFF/, ''))
    return true
  } catch {
    return false
  }
}

/** Text near JSON: a serialized file with a few characters deleted, inserted or replaced. */
const nearlyJsonArbitrary = fc
  .tuple(
    validMintConfigArbitrary.map(serializeSiteConfig),
    fc.array(fc.tuple(fc.nat(), fc.nat({ max: 2 }), fc.constantFrom(...'{}[],:"\\ \n0-e.tu/')), { minLength: 1, maxLength: 3 }),
  )
  .map(([text, edits]) =>
    edits.reduce((edited, [at, deleteCount, insert]) => {
      const index = at % (edited.length + 1)
      return edited.slice(0, index) + insert + edited.slice(index + deleteCount)
    }, text),
  )

describe('properties', () => {
  it('generates only valid files (the arbitrary follows the schema)', () => {
    fc.assert(
      fc.property(validMintConfigArbitrary, (config) => {
        expect(validateMintConfig(config).errors).toEqual([])
      }),
    )
  })

  it('load → edit nothing → save gives the same bytes, unknown keys and key order included', () => {
    fc.assert(
      fc.property(validMintConfigArbitrary, (config) => {
        const saved = serializeSiteConfig(config)
        const loaded = parseJsonText(saved)
        if (!loaded.ok) throw new Error(loaded.error.message)
        expect(validateMintConfig(loaded.value).valid).toBe(true)
        expect(serializeSiteConfig(loaded.value)).toBe(saved)
      }),
      { numRuns: 300 },
    )
  })

  it('validation never changes the value it checks', () => {
    fc.assert(
      fc.property(validMintConfigArbitrary, (config) => {
        const before = serializeSiteConfig(config)
        validateMintConfig(config)
        expect(serializeSiteConfig(config)).toBe(before)
      }),
    )
  })

  it('never throws for any JSON value, and reports valid exactly when there are no errors', () => {
    fc.assert(
      fc.property(fc.jsonValue(), (value) => {
        const report = validateMintConfig(value)
        expect(report.valid).toBe(report.errors.length === 0)
      }),
      { numRuns: 500 },
    )
  })

  it('never throws for anything JavaScript can hold', () => {
    const anything = fc.anything({
      withBigInt: true,
      withBoxedValues: true,
      withDate: true,
      withMap: true,
      withSet: true,
      withNullPrototype: true,
      withObjectString: true,
      withSparseArray: true,
      withTypedArray: true,
      withUnicodeString: true,
    })
    fc.assert(
      fc.property(anything, (value) => void validateMintConfig(value)),
      { numRuns: 500 },
    )
  })

  it('never throws for anything shaped a little like a site.json', () => {
    const loose = fc.record(
      {
        name: fc.anything(),
        navigation: fc.anything(),
        anchors: fc.anything(),
        versions: fc.anything(),
        api: fc.anything(),
        colors: fc.anything(),
      },
      { requiredKeys: [] },
    )
    fc.assert(
      fc.property(loose, (value) => void validateMintConfig(value)),
      { numRuns: 500 },
    )
  })

  it('never throws for any text, and finds a syntax error exactly when JSON.parse does', () => {
    const texts = fc.oneof(fc.string(), fc.string({ unit: 'binary' }), fc.json(), nearlyJsonArbitrary)
    fc.assert(
      fc.property(texts, (text) => {
        const report = validateMintConfigText(text)
        expect(parseJsonText(text).ok).toBe(parsesAsJson(text))
        if (!parsesAsJson(text)) expect(report.errors[0]?.message).toMatch(/^is not valid JSON at line \d+, column \d+: /)
      }),
      { numRuns: 1000 },
    )
  })
})
