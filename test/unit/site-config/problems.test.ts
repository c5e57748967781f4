import { describe, expect, it } from 'vitest'
import { validateMintConfig } from '../../../src-shared/site-config/mint-validate'
import { formatProblemPath } from '../../../src-shared/site-config/problem-path'
import { MINIMAL_CONFIG } from './spec-table'

describe('problem paths', () => {
  it.each([
    [[], '$'],
    [['name'], 'name'],
    [['colors', 'primary'], 'colors.primary'],
    [['navigation', 0, 'pages', 1], 'navigation[0].pages[1]'],
    [['footerSocials', 'hacker-news'], 'footerSocials["hacker-news"]'],
    [['weird key'], '["weird key"]'],
    [['$schema'], '$schema'],
    [['$'], '["$"]'],
    [['list', '0'], 'list["0"]'],
    [['quote"d'], '["quote\\"d"]'],
    [[''], '[""]'],
    [[0], '[0]'],
  ] as const)('formats %j as %s', (path, text) => {
    expect(formatProblemPath(path)).toBe(text)
  })

  it('uses the notation in every report', () => {
    const report = validateMintConfig({
      name: 'Docs',
      navigation: [{ group: 'A', pages: ['a', 2] }],
      colors: { primary: 'teal' },
      footerSocials: { 'hacker-news': false },
    })
    expect(report.errors.map((error) => error.path)).toEqual(['navigation[0].pages[1]', 'colors.primary', 'footerSocials["hacker-news"]'])
  })
})

describe('problem messages', () => {
  const errorsOf = (patch: Record<string, unknown>) => validateMintConfig({ ...MINIMAL_CONFIG, ...patch }).errors

  it('say what to write, in words, never in zod’s terms', () => {
    const errors = validateMintConfig({
      name: ['Docs'],
      navigation: [{ group: 'A', pages: [] }],
      colors: { primary: '#0D93' },
      anchors: [{ name: 'A', url: 'a', isDefaultHidden: 'no', iconType: 'bold' }],
      feedback: { suggestEdit: 1 },
    }).errors
    expect(errors).toEqual([
      { path: 'name', message: 'must be a string, not a list' },
      { path: 'colors.primary', message: 'must be a hex colour like #0D9373 or #0D9' },
      { path: 'anchors[0].isDefaultHidden', message: 'must be true or false, not "no"' },
      {
        path: 'anchors[0].iconType',
        message: 'must be one of "brands", "duotone", "light", "sharp-solid", "solid" or "thin", not "bold"',
      },
      { path: 'feedback.suggestEdit', message: 'must be true or false, not the number 1' },
    ])
    for (const { message } of errors) expect(message).not.toMatch(/Invalid|expected \w+, received/)
  })

  it('name a long wrong string without repeating it', () => {
    expect(errorsOf({ feedback: { raiseIssue: 'x'.repeat(100) } })).toEqual([
      { path: 'feedback.raiseIssue', message: 'must be true or false, not a long string' },
    ])
  })

  it('point inside a union option when the value has that option’s type', () => {
    expect(errorsOf({ logo: { light: '/l.svg', dark: 3 } })).toEqual([{ path: 'logo.dark', message: 'must be a string, not the number 3' }])
    expect(errorsOf({ api: { baseUrl: ['https://a', false] } })).toEqual([
      { path: 'api.baseUrl[1]', message: 'must be a string, not false' },
    ])
  })

  it('combine with the CLI’s "path: message" into a sentence', () => {
    const [error] = errorsOf({ colors: { primary: 'teal' } })
    expect(`${error?.path}: ${error?.message}`).toBe('colors.primary: must be a hex colour like #0D9373 or #0D9')
  })
})
