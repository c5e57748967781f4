import { describe, expect, it } from 'vitest'
import { checkMintConfig, validateMintConfig } from '../../../src-shared/site-config/mint-validate'
import { serializeSiteConfig } from '../../../src-shared/site-config/serialize'
import { MINIMAL_CONFIG } from './spec-table'

const KEPT = 'is not a known setting: kept as written'

describe('warnings', () => {
  describe('an anchor version that is not in versions', () => {
    const anchorsWith = (versions: unknown, version: string) => ({
      ...MINIMAL_CONFIG,
      ...(versions === undefined ? {} : { versions }),
      anchors: [
        { name: 'Guides', url: 'guides' },
        { name: 'Legacy', url: 'legacy', version },
      ],
    })

    it('warns at the anchor’s version, and the file stays valid', () => {
      expect(validateMintConfig(anchorsWith(['v1', 'v2'], 'v3'))).toEqual({
        valid: true,
        errors: [],
        warnings: [
          {
            path: 'anchors[1].version',
            message: '"v3" is not one of the versions listed in "versions", so this anchor never shows',
          },
        ],
      })
    })

    it('warns when the file lists no versions at all', () => {
      expect(validateMintConfig(anchorsWith(undefined, 'v1')).warnings.map((warning) => warning.path)).toEqual(['anchors[1].version'])
    })

    it('says nothing when the version is listed', () => {
      expect(validateMintConfig(anchorsWith(['v1', 'v2'], 'v2')).warnings).toEqual([])
    })

    it('still warns next to errors elsewhere, and ignores versions that are not strings', () => {
      const report = validateMintConfig({ ...anchorsWith(['v1', 7], 'v3'), name: 7 })
      expect(report.valid).toBe(false)
      expect(report.warnings.map((warning) => warning.path)).toEqual(['anchors[1].version'])
    })
  })

  describe('basic authentication with a name not in <usernameName>:<passwordName> form', () => {
    const auth = (method: string, name: string) => ({ ...MINIMAL_CONFIG, api: { auth: { method, name } } })
    const warning = {
      path: 'api.auth.name',
      message: 'should read <usernameName>:<passwordName> when method is "basic", like "username:password"',
    }

    it.each(['username', 'user:', ':password', 'a:b:c', ''])('warns for %j', (name) => {
      expect(validateMintConfig(auth('basic', name))).toEqual({ valid: true, errors: [], warnings: [warning] })
    })

    it('says nothing for user:password, nor for other methods', () => {
      expect(validateMintConfig(auth('basic', 'user:password')).warnings).toEqual([])
      expect(validateMintConfig(auth('bearer', 'Authorization')).warnings).toEqual([])
      expect(validateMintConfig(auth('key', 'X-API-Key')).warnings).toEqual([])
    })
  })

  describe('keys the spec does not know', () => {
    it('warns at any depth, keeps the file valid, lists Mintlify’s settings as information, and leaves the value as it was', () => {
      const config = {
        $schema: 'https://acme.com/site.schema.json',
        ...MINIMAL_CONFIG,
        navigation: [{ group: 'Get started', pages: ['introduction'], icon: 'rocket' }],
        logo: { light: '/l.svg', dark: '/d.svg', width: 120 },
        colors: { primary: '#0D9373', anchors: '#0D9373', background: { light: '#FFF', dark: '#000', image: 'x' } },
        topbarCtaButton: { name: 'Go', url: '/', style: 'pill' },
        anchors: [{ name: 'A', url: 'a', color: { from: '#000', to: '#FFF', via: '#888' } }],
        api: { auth: { method: 'key', scheme: 'header' }, playground: { mode: 'show', disableProxy: true } },
        feedback: { thumbsRating: true },
        'custom key': { nested: { deeper: true } },
      }
      const before = serializeSiteConfig(config)
      const report = checkMintConfig(config, 'spec')
      expect(report.valid).toBe(true)
      expect(report.errors).toEqual([])
      // $schema belongs to the file, and is known under both rule sets.
      expect(report.warnings).toEqual(
        ['logo.width', 'colors.background.image', 'api.auth.scheme', '["custom key"]'].map((path) => ({ path, message: KEPT })),
      )
      expect(report.info).toEqual(
        [
          'navigation[0].icon',
          'colors.anchors',
          'topbarCtaButton.style',
          'anchors[0].color.via',
          'api.playground.disableProxy',
          'feedback.thumbsRating',
        ].map((path) => ({ path, message: 'is a Mintlify setting outside the spec: kept as written' })),
      )
      expect(validateMintConfig(config)).toEqual({ valid: true, errors: [], warnings: report.warnings })
      expect(serializeSiteConfig(config)).toBe(before)
    })

    it('does not look inside the value of an unknown key', () => {
      const report = validateMintConfig({ ...MINIMAL_CONFIG, extra: { name: 1, navigation: 'x' } })
      expect(report.warnings).toEqual([{ path: 'extra', message: KEPT }])
    })

    it('suggests the known key a typo or a wrong case probably meant', () => {
      const report = validateMintConfig({
        ...MINIMAL_CONFIG,
        Favicon: '/favicon.svg',
        colours: { primary: '#0D9373' },
        colors: { primray: '#0D9373', primary: '#0D9373' },
        modeToggle: { hidden: true },
      })
      expect(report.warnings).toEqual([
        { path: 'Favicon', message: 'is not a known setting (did you mean "favicon"?): kept as written' },
        { path: 'colours', message: 'is not a known setting (did you mean "colors"?): kept as written' },
        { path: 'colors.primray', message: 'is not a known setting (did you mean "primary"?): kept as written' },
        { path: 'modeToggle.hidden', message: KEPT },
      ])
    })

    it('walks what it can of an invalid file without throwing', () => {
      const report = validateMintConfig({ name: 'x', navigation: [null, 'a', [], { group: 'g', pages: 'p', more: 1 }] })
      expect(report.valid).toBe(false)
      expect(report.warnings).toEqual([{ path: 'navigation[3].more', message: KEPT }])
    })
  })

  describe('an empty navigation', () => {
    it('warns at navigation, and the file stays valid', () => {
      expect(validateMintConfig({ ...MINIMAL_CONFIG, navigation: [] })).toEqual({
        valid: true,
        errors: [],
        warnings: [{ path: 'navigation', message: 'is empty: the site will have no pages' }],
      })
    })

    it('does not warn for a group without pages', () => {
      expect(validateMintConfig({ ...MINIMAL_CONFIG, navigation: [{ group: 'Soon', pages: [] }] }).warnings).toEqual([])
    })
  })
})
