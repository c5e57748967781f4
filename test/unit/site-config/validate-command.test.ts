import { execFileSync } from 'node:child_process'
import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { type CliIo, UsageError } from '../../../src-main/cli/usage'
import { runValidate, validateCommand } from '../../../src-main/cli/validate-command'
import { SITE_CONFIG_TEMPLATE } from '../../../src-shared/site-config/serialize'
import { failureOf } from '../../helpers/failure-of'
import { siteFiles, tempDir } from '../site-files/helpers'

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

const NESTED_FIXTURES = join(import.meta.dirname, '../../fixtures/site-config/real-world-shaped')
const DOCS_FIXTURE = join(import.meta.dirname, '../../fixtures/site-config/docs-site')

let dir: string
const file = (name: string) => join(dir, name)

beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), 'embed-console-validate-'))
  await writeFile(file('valid.json'), SITE_CONFIG_TEMPLATE)
  // The template's one page, so the docs folder check (on by default) has nothing to say.
  await writeFile(file('introduction.mdx'), '---\ntitle: Introduction\n---\n')
  await writeFile(
    file('warned.json'),
    JSON.stringify({ name: 'Docs', navigation: [], anchors: [{ name: 'Old', url: 'old', version: 'v0' }] }),
  )
  await writeFile(
    file('invalid.json'),
    JSON.stringify({ name: 'Docs', navigation: [{ group: 'A', pages: [1] }], colors: { primary: 'teal' } }),
  )
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
    expect(err).toEqual([`${file('missing.json')}: cannot be read: no such file`, `${file('folder.json')}: cannot be read: it is a folder`])
    expect(out.at(-1)).toBe('Checked 3 files: 0 valid, 1 invalid, 2 unreadable (2 errors, 0 warnings).')
  })

  it('prints one JSON object per file with --json', async () => {
    const { io, out } = captureIo()
    const code = await runValidate(['--json', file('valid.json'), file('warned.json'), file('invalid.json'), file('missing.json')], io)
    expect(code).toBe(2)
    expect(out).toHaveLength(1)
    const reports = JSON.parse(out[0] as string)
    // Each file says its format, and each problem its line (these files are written on one line).
    expect(reports).toEqual([
      { file: file('valid.json'), format: 'mint', valid: true, errors: [], warnings: [] },
      {
        file: file('warned.json'),
        format: 'mint',
        valid: true,
        errors: [],
        warnings: [
          { path: 'navigation', message: expect.any(String), line: 1 },
          { path: 'anchors[0].version', message: expect.any(String), line: 1 },
        ],
      },
      {
        file: file('invalid.json'),
        format: 'mint',
        valid: false,
        errors: [
          { path: 'navigation[0].pages[0]', message: 'must be a string, not the number 1', line: 1 },
          { path: 'colors.primary', message: 'must be a hex colour like #0D9373 or #0D9', line: 1 },
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
    expect(validateCommand.usage).toBe('embed-console validate [--rules spec|mintlify] [--root DIR | --no-files] [--json] FILE...')
  })

  it('checks with the Mintlify-compatible rules on request', async () => {
    const nested = join(NESTED_FIXTURES, 'nested-groups.json')
    const spec = captureIo()
    expect(await runValidate(['--no-files', nested], spec.io)).toBe(1)
    expect(spec.out.at(-1)).toBe('Checked 1 file: 0 valid, 1 invalid (3 errors, 0 warnings).')
    const mintlify = captureIo()
    expect(await runValidate(['--rules', 'mintlify', '--no-files', nested], mintlify.io)).toBe(0)
    expect(mintlify.out).toEqual(['Checked 1 file: 1 valid, 0 invalid (0 errors, 0 warnings).'])
    const withSettings = captureIo()
    expect(await runValidate(['--rules', 'mintlify', '--no-files', join(NESTED_FIXTURES, 'four-spaces.json')], withSettings.io)).toBe(0)
    expect(withSettings.out).toEqual([
      'Checked 1 file: 1 valid, 0 invalid (0 errors, 0 warnings; 3 Mintlify settings outside the spec kept as written).',
    ])
  })

  it('reports every page and file missing from the docs folder, and every broken OpenAPI file, as warnings', async () => {
    const { io, out } = captureIo()
    const site = join(DOCS_FIXTURE, 'mint.json')
    expect(await runValidate([site], io)).toBe(0)
    expect(out).toEqual([
      `${site}: navigation[0].pages[2]: warning: has no page in the docs folder: expected guides/missing-page.mdx or guides/missing-page.md`,
      `${site}: navigation[1].pages[1]: warning: has no page in the docs folder: expected api/ghost.mdx or api/ghost.md`,
      `${site}: favicon: warning: is not in the docs folder: no favicon at favicon.svg`,
      `${site}: backgroundImage: warning: is not in the docs folder: no background image at images/background.png`,
      expect.stringMatching(
        new RegExp(`^${site.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}: openapi\\[1\\]: warning: is not a valid OpenAPI file: `),
      ),
      `${site}: openapi[2]: warning: is not in the docs folder: no OpenAPI file at specs/missing.json`,
      'Checked 1 file: 1 valid, 0 invalid (0 errors, 6 warnings).',
    ])
  })

  it('looks in the folder --root names, and nowhere with --no-files', async () => {
    const empty = await mkdtemp(join(tmpdir(), 'embed-console-empty-docs-'))
    const elsewhere = captureIo()
    expect(await runValidate(['--root', empty, file('valid.json')], elsewhere.io)).toBe(0)
    expect(elsewhere.out).toEqual([
      `${file('valid.json')}: navigation[0].pages[0]: warning: has no page in the docs folder: expected introduction.mdx or introduction.md`,
      'Checked 1 file: 1 valid, 0 invalid (0 errors, 1 warning).',
    ])
    const skipped = captureIo()
    await runValidate(['--no-files', join(DOCS_FIXTURE, 'mint.json')], skipped.io)
    expect(skipped.out).toEqual(['Checked 1 file: 1 valid, 0 invalid (0 errors, 0 warnings).'])
  })

  it('refuses a pipe rather than waiting on it forever', async () => {
    const fifo = file('pipe.json')
    execFileSync('mkfifo', [fifo])
    const { io, err } = captureIo()
    expect(await runValidate([fifo], io)).toBe(2)
    expect(err).toEqual([
      `${fifo}: cannot be read: it is a pipe (FIFO), not a file: it is not opened, since reading it could wait forever.`,
    ])
  })

  it('refuses text that is not UTF-8 with the sentence the app opens it with, its $ref files too', async () => {
    const latin = file('latin.json')
    await writeFile(
      latin,
      Buffer.concat([Buffer.from('{\n  "name": "Caf'), Buffer.from([0xe9]), Buffer.from('",\n  "navigation": []\n}\n')]),
    )
    const app = await failureOf(siteFiles(await tempDir('ec-validate-data-')).open(latin))
    expect(app.message).toBe(
      'latin.json is not UTF-8 text: line 2 holds the byte 0xE9, which UTF-8 does not allow there. Save it as UTF-8 to use it here.',
    )
    const { io, err, out } = captureIo()
    expect(await runValidate(['--no-files', latin], io)).toBe(2)
    expect(err).toEqual([
      `${latin}: cannot be read: it is not UTF-8 text: line 2 holds the byte 0xE9, which UTF-8 does not allow there. Save it as UTF-8 to use it here.`,
    ])
    expect(out).toEqual(['Checked 1 file: 0 valid, 0 invalid, 1 unreadable (0 errors, 0 warnings).'])

    const folder = await tempDir('ec-validate-latin-ref-')
    await writeFile(
      join(folder, 'docs.json'),
      JSON.stringify({ theme: 'mint', name: 'Docs', colors: { primary: '#112233' }, navigation: { $ref: 'nav.json' } }),
    )
    await writeFile(
      join(folder, 'nav.json'),
      Buffer.from([0x7b, 0x22, 0x70, 0x61, 0x67, 0x65, 0x73, 0x22, 0x3a, 0x5b, 0x22, 0xe9, 0x22, 0x5d, 0x7d]),
    )
    const ref = captureIo()
    expect(await runValidate(['--no-files', join(folder, 'docs.json')], ref.io)).toBe(1)
    expect(ref.out[0]).toBe(
      `${join(folder, 'docs.json')}: navigation.$ref: names nav.json, which cannot be read: nav.json is not UTF-8 text: line 1 holds the byte 0xE9, which UTF-8 does not allow there. Save it as UTF-8 to use it here.`,
    )
  })

  it('treats an unknown rule set, or --root with --no-files, as bad usage', async () => {
    const { io } = captureIo()
    await expect(runValidate(['--rules', 'docusaurus', file('valid.json')], io)).rejects.toThrow(
      '--rules takes spec or mintlify, not "docusaurus".',
    )
    await expect(runValidate(['--root', dir, '--no-files', file('valid.json')], io)).rejects.toThrow(UsageError)
  })
})
