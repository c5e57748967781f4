import { describe, expect, it } from 'vitest'
import { validateMintConfigText } from '../../../src-shared/site-config/mint-validate'
import { serializeSiteConfig, SITE_CONFIG_TEMPLATE } from '../../../src-shared/site-config/serialize'

describe('serializeSiteConfig', () => {
  it('writes 2-space JSON with a final newline, keys in their order', () => {
    expect(serializeSiteConfig({ navigation: [], name: 'Docs', colors: { primary: '#0D9373' } })).toBe(
      '{\n  "navigation": [],\n  "name": "Docs",\n  "colors": {\n    "primary": "#0D9373"\n  }\n}\n',
    )
  })

  it('leaves out fields set to undefined, so a cleared field is not written', () => {
    expect(serializeSiteConfig({ name: 'Docs', favicon: undefined })).toBe('{\n  "name": "Docs"\n}\n')
  })

  it('refuses a value JSON cannot hold rather than write "undefined"', () => {
    expect(() => serializeSiteConfig(undefined)).toThrow(TypeError)
  })
})

describe('SITE_CONFIG_TEMPLATE', () => {
  it('is a valid file without warnings, in the app’s own format', () => {
    expect(validateMintConfigText(SITE_CONFIG_TEMPLATE)).toEqual({ valid: true, errors: [], warnings: [] })
    expect(serializeSiteConfig(JSON.parse(SITE_CONFIG_TEMPLATE))).toBe(SITE_CONFIG_TEMPLATE)
  })
})
