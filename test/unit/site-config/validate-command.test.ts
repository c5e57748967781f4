import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { runValidate, validateCommand } from '../../../src-main/cli/validate-command'
import { UsageError, type CliIo } from '../../../src-main/cli/usage'
import { SITE_CONFIG_TEMPLATE } from '../../../src-shared/site-config/format'

function captureIo() {
  const out: string[] = []
  const err: string[] = []
  const io: CliIo = {
    stdout: (text) => out.push(text),
    stderr: (text) => err.push(text),
    stdin: async () => '',
    env: {},
  }
  return { io, out, err }
}

let dir: string
const file = (name: string) => join(dir, name)

beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), 'embed-console-validate-'))
  await writeFile(file('valid.json'), SITE_CONFIG_TEMPLATE)
  await writeFile(
    file('warned.json'),
    JSON.stringify({ name: 'Docs', navigation: [], anchors: [{ name: 'Old', url: 'old', version: 'v0' }] }),
  )
  await writeFile(file('invalid.json'), JSON.stringify({ name: 'Docs', navigation: [{ group: 'A', pages: [1] }], colors: { primary: 'teal' } }))
  await writeFile(file('broken.json'), '{\n  "name": "Docs",\n}\n')
  await mkdir(file('folder.json'))
})

afterAll(async () => {
  await rm(dir, { recursive: true, force: true })
})

describe('embed-console validate', () => {
  it('exits 0 for valid files and says so in a summary', async () => {
    const { io, out, err } = captureIo()
    expect(await runValidate([file('valid.json')], io)).toBe(0)
    expect(out).toEqual(['Checked 1 file: 1 valid, 0 invalid (0 errors, 0 warnings).'])
    expect(err).toEqual([])
  })

  it('exits 0 when there are only warnings, and prints them marked', async () => {
    const { io, out } = captureIo()
    expect(await runValidate([file('warned.json')], io)).toBe(0)
    expect(out).toEqual([
      `${file('warned.json')}: navigation: warning: is empty: the site will have no pages`,
      `${file('warned.json')}: anchors[0].version: warning: "v0" is not one of the versions listed in "versions", so this anchor never shows`,
      'Checked 1 file: 1 valid, 0 invalid (0 errors, 2 warnings).',
    ])
  })

  it('exits 1 when a file is invalid, printing FILE: path: message for each problem', async () => {
    const { io, out } = captureIo()
    expect(await runValidate([file('valid.json'), file('invalid.json'), file('broken.json')], io)).toBe(1)
    expect(out).toEqual([
      `${file('invalid.json')}: navigation[0].pages[0]: must be a string, not the number 1`,
      `${file('invalid.json')}: colors.primary: must be a hex colour like #0D9373 or #0D9`,
      `${file('broken.json')}: $: is not valid JSON at line 2, column 17: remove this comma: JSON allows none before "}"`,
      'Checked 3 files: 1 valid, 2 invalid (3 errors, 0 warnings).',
    ])
  })

  it('exits 2 for a missing file or a folder, and still checks the others', async () => {
    const { io, out, err } = captureIo()
    expect(await runValidate([file('missing.json'), file('folder.json'), file('invalid.json')], io)).toBe(2)
    expect(err).toEqual([
      `${file('missing.json')}: cannot be read: no such file`,
      `${file('folder.json')}: cannot be read: it is a folder`,
    ])
    expect(out.at(-1)).toBe('Checked 3 files: 0 valid, 1 invalid, 2 unreadable (2 errors, 0 warnings).')
  })

  it('prints one JSON object per file with --json', async () => {
    const { io, out } = captureIo()
    const code = await runValidate(['--json', file('valid.json'), file('warned.json'), file('invalid.json'), file('missing.json')], io)
    expect(code).toBe(2)
    expect(out).toHaveLength(1)
    const reports = JSON.parse(out[0] as string)
    expect(reports).toEqual([
      { file: file('valid.json'), valid: true, errors: [], warnings: [] },
      {
        file: file('warned.json'),
        valid: true,
        errors: [],
        warnings: [
          { path: 'navigation', message: expect.any(String) },
          { path: 'anchors[0].version', message: expect.any(String) },
        ],
      },
      {
        file: file('invalid.json'),
        valid: false,
        errors: [
          { path: 'navigation[0].pages[0]', message: 'must be a string, not the number 1' },
          { path: 'colors.primary', message: 'must be a hex colour like #0D9373 or #0D9' },
        ],
        warnings: [],
      },
      { file: file('missing.json'), valid: false, errors: [{ path: '$', message: 'cannot be read: no such file' }], warnings: [] },
    ])
  })

  it('exits 1 with --json when a file is invalid', async () => {
    const { io } = captureIo()
    expect(await runValidate([file('invalid.json'), '--json'], io)).toBe(1)
  })

  it('treats no file, or an unknown option, as bad usage (exit 2 through the CLI)', async () => {
    const { io } = captureIo()
    await expect(runValidate([], io)).rejects.toThrow(UsageError)
    await expect(runValidate(['--json'], io)).rejects.toThrow(UsageError)
    await expect(runValidate(['--strict', file('valid.json')], io)).rejects.toMatchObject({ code: 'ERR_PARSE_ARGS_UNKNOWN_OPTION' })
  })

  it('registers as the validate command', () => {
    expect(validateCommand).toMatchObject({ name: 'validate', run: runValidate })
    expect(validateCommand.usage).toBe('embed-console validate [--json] FILE...')
  })
})
