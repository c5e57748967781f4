import { existsSync, readdirSync, readFileSync } from 'node:fs'
import { readFile, writeFile } from 'node:fs/promises'
import { join } from 'node:path'
import { upgradeToDocsConfig, validateDocsConfig, validateMintConfig } from '@mintlify/validation'
import { describe, expect, it } from 'vitest'
import { runConvert } from '../../../src-main/cli/convert-command'
import type { CliIo } from '../../../src-main/cli/usage'
import { convertMintToDocs } from '../../../src-shared/site-config/convert-mint'
import { formatProblemPath } from '../../../src-shared/site-config/problem-path'
import { findCorpus } from '../../helpers/corpus'
import { tempDir } from '../site-files/helpers'

// mint.json → docs.json on the 179 real files: what Mintlify accepts converts to a docs.json it
// accepts, and no setting is lost without its name.
const MINT = findCorpus('mint')
const REAL_WORLD = MINT.dir ?? ''
const hasCorpus = MINT.dir !== null
const corpus = hasCorpus
  ? readdirSync(REAL_WORLD)
      .sort()
      .map((name) => {
        const text = readFileSync(join(REAL_WORLD, name), 'utf8').replace(/^\uFEFF/, '')
        return { name, text, value: JSON.parse(text) as Record<string, unknown> }
      })
  : []

/** Every leaf of a value, with its path (an empty object or list holds no setting). */
function leaves(value: unknown, path: (string | number)[] = [], found: { path: (string | number)[]; value: unknown }[] = []) {
  if (Array.isArray(value) ? value.length : value && typeof value === 'object' ? Object.keys(value).length : false) {
    for (const [key, child] of Object.entries(value as object)) leaves(child, [...path, Array.isArray(value) ? Number(key) : key], found)
  } else if (!(value && typeof value === 'object')) found.push({ path, value })
  return found
}

describe.skipIf(!hasCorpus)(`converting the real mint.json files${MINT.skipNote}`, () => {
  const accepted = corpus.filter(({ value }) => validateMintConfig(structuredClone(value)).success)

  it('every one Mintlify accepts becomes a docs.json Mintlify accepts (its own converter: 164 of 170)', () => {
    expect(accepted).toHaveLength(170)
    const refused = accepted
      .filter(({ text, value }) => !validateDocsConfig(JSON.parse(convertMintToDocs(text, value).text)).success)
      .map(({ name }) => name)
    expect(refused).toEqual([])
    const theirs = accepted.filter(
      ({ value }) =>
        validateDocsConfig(
          JSON.parse(
            JSON.stringify(upgradeToDocsConfig(validateMintConfig(structuredClone(value)).data as never, { shouldUpgradeTheme: true })),
          ),
        ).success,
    )
    expect(theirs).toHaveLength(164)
  })

  it('names every setting it does not carry: each leaf of the mint.json is in the docs.json, or it (or a key above it) is named', () => {
    const silent: string[] = []
    for (const { name, text, value } of corpus) {
      const conversion = convertMintToDocs(text, value)
      const output = new Set(leaves(conversion.value).map((leaf) => JSON.stringify(leaf.value)))
      const named = [...conversion.dropped, ...conversion.changed].map((note) => note.path)
      for (const leaf of leaves(value)) {
        const path = formatProblemPath(leaf.path)
        const isNamed = named.some((note) => path === note || path.startsWith(`${note}.`) || path.startsWith(`${note}[`))
        if (!isNamed && !output.has(JSON.stringify(leaf.value)) && leaf.path[0] !== '$schema') silent.push(`${name}: ${path}`)
      }
    }
    expect(silent).toEqual([])
  })

  it('names each note once, and once in --json too: a tab or anchor shown in several versions or tabs is one setting', async () => {
    const repeated: string[] = []
    for (const { name, text, value } of corpus) {
      const { changed, dropped } = convertMintToDocs(text, value)
      for (const notes of [changed, dropped]) {
        const ids = notes.map((note) => `${note.path}: ${note.message}`)
        repeated.push(...ids.filter((id, index) => ids.indexOf(id) !== index).map((id) => `${name}: ${id}`))
      }
    }
    expect(repeated).toEqual([])
    // One of the files that named its gradient anchor colour once for every anchor, through the command.
    const gradient = corpus.find(({ name }) => name === 'flipt-io__docs__mint.json')!
    const dir = await tempDir('ec-convert-')
    await writeFile(join(dir, 'mint.json'), gradient.text)
    const out: string[] = []
    expect(
      await runConvert(['--json', join(dir, 'mint.json')], {
        stdout: (text) => out.push(text),
        stderr: () => {},
        stdin: async () => '',
        env: {},
      }),
    ).toBe(0)
    const { value: result } = JSON.parse(out[0]!) as { value: { changed: { path: string; message: string }[] } }
    expect(result.changed.filter((note) => note.path === 'colors.anchors' && note.message.startsWith('is a gradient'))).toHaveLength(1)
  })

  it('keeps the text of what maps one to one, and the file’s indentation', () => {
    const tabs = corpus.find(({ text }) => text.startsWith('{\n\t'))!
    const converted = convertMintToDocs(tabs.text, tabs.value).text
    expect(converted.startsWith('{\n\t"$schema": "https://mintlify.com/docs.json",\n\t"theme": ')).toBe(true)
    // The name's line is as it was, tab and all.
    const nameLine = tabs.text.split('\n').find((line) => line.includes('"name"') && line.startsWith('\t"'))!
    expect(converted.split('\n')).toContain(nameLine)
  })
})

describe('what the converter carries that Mintlify’s drops, and what it names', () => {
  const mint = {
    name: 'Acme',
    layout: 'sidenav',
    colors: { primary: '#0D9373', anchors: { from: '#0D9373', to: '#07C983' } },
    feedback: { thumbsRating: true },
    rounded: 'sharp',
    api: { baseUrl: 'https://api.acme.dev', auth: { method: 'key', name: 'Authorization', inputPrefix: 'Token ' } },
    topAnchor: { name: 'Guides', icon: 'book' },
    anchors: [{ name: 'API', url: 'api', icon: 'code' }],
    tabs: [{ name: 'SDKs', url: 'sdks', icon: 'box' }],
    navigation: [
      { group: 'Start', pages: ['index', 'api/users'] },
      { group: 'SDKs', pages: ['sdks/node'] },
    ],
  }

  it('carries anchor colours, tab icons and the theme a layout implies; names feedback, rounded and inputPrefix', () => {
    const conversion = convertMintToDocs(JSON.stringify(mint, null, 2), structuredClone(mint))
    expect(conversion.value.theme).toBe('maple')
    const navigation = conversion.value.navigation as { tabs: Record<string, unknown>[] }
    expect(navigation.tabs.map((tab) => tab.tab)).toEqual(['Documentation', 'SDKs'])
    expect(navigation.tabs[1]).toMatchObject({ tab: 'SDKs', icon: 'box', groups: [{ group: 'SDKs', pages: ['sdks/node'] }] })
    expect(navigation.tabs[0]).toMatchObject({
      anchors: [
        { anchor: 'Guides', icon: 'book' },
        { anchor: 'API', icon: 'code', color: { light: '#0D9373', dark: '#0D9373' } },
      ],
    })
    expect(conversion.dropped.map((note) => note.path)).toEqual(['api.auth.inputPrefix', 'feedback', 'rounded'])
    expect(conversion.dropped[0]!.message).toContain('no input prefix')
    expect(conversion.changed.map((note) => note.path)).toEqual(expect.arrayContaining(['layout', 'colors.anchors']))
    expect(validateDocsConfig(structuredClone(conversion.value)).success).toBe(true)
  })
})

describe('settings real mint.json files hold that an earlier converter lost or misread', () => {
  const base = { name: 'Acme', colors: { primary: '#0D9373' }, navigation: [{ group: 'Start', pages: ['index', 'api/users'] }] }
  const convert = (mint: Record<string, unknown>) => convertMintToDocs(JSON.stringify(mint, null, 2), structuredClone(mint))
  const paths = (notes: { path: string }[]) => notes.map((note) => note.path)

  it('keeps api.playground.display (docs.json has it), and the older mode gives way to it with a note', () => {
    const kept = convert({ ...base, api: { playground: { display: 'simple', proxy: false, credentials: true } } })
    expect((kept.value.api as Record<string, unknown>).playground).toEqual({ display: 'simple', proxy: false, credentials: true })
    expect(kept.dropped).toEqual([])
    expect(validateDocsConfig(structuredClone(kept.value)).success).toBe(true)

    const both = convert({ ...base, api: { playground: { display: 'none', mode: 'show', disableProxy: true, proxy: true } } })
    expect((both.value.api as Record<string, unknown>).playground).toEqual({ display: 'none', proxy: true })
    expect(both.dropped).toEqual([
      { path: 'api.playground.disableProxy', message: 'api.playground.proxy is set too, and docs.json keeps that one' },
      { path: 'api.playground.mode', message: 'api.playground.display is set too, and docs.json keeps that one' },
    ])
  })

  it('carries an anchor or tab whose url is mailto: (or any URL with a scheme) as a link, not as a prefix of pages', () => {
    const conversion = convert({
      ...base,
      anchors: [
        { name: 'API', url: 'api', icon: 'code' },
        { name: 'Support', url: 'mailto:help@acme.dev', icon: 'envelope' },
      ],
      tabs: [{ name: 'Call us', url: 'tel:+15550100' }],
    })
    const navigation = conversion.value.navigation as { global: Record<string, unknown[]> }
    expect(navigation.global).toEqual({
      tabs: [{ tab: 'Call us', href: 'tel:+15550100' }],
      anchors: [{ anchor: 'Support', icon: 'envelope', href: 'mailto:help@acme.dev' }],
    })
    expect(conversion.dropped).toEqual([])
    expect(paths(conversion.changed)).not.toContain('anchors[1].url')
    expect(validateDocsConfig(structuredClone(conversion.value)).success).toBe(true)
  })

  it('names a font’s format it cannot carry: without a file, or one docs.json does not take', () => {
    const noFile = convert({
      ...base,
      font: { headings: { family: 'Inter', format: 'woff2' }, body: { family: 'Lora', url: 'https://acme.dev/lora.woff' } },
    })
    expect(noFile.value.fonts).toEqual({
      heading: { family: 'Inter' },
      body: { family: 'Lora', source: 'https://acme.dev/lora.woff', format: 'woff' },
    })
    expect(noFile.dropped).toEqual([
      { path: 'font.headings.format', message: 'docs.json takes a font’s format only with its file (url), and this font names no file' },
    ])
    expect(paths(noFile.changed)).toEqual(['font.body.url'])

    const otherFormat = convert({ ...base, font: { family: 'Inter', url: 'https://acme.dev/inter.ttf', format: 'truetype' } })
    expect(otherFormat.value.fonts).toEqual({ family: 'Inter' })
    expect(paths(otherFormat.dropped)).toEqual(['font.format', 'font.url'])
    expect(validateDocsConfig(structuredClone(otherFormat.value)).success).toBe(true)
  })
})

describe('embed-console convert', () => {
  const io = () => {
    const out: string[] = []
    const err: string[] = []
    const cli: CliIo = { stdout: (text) => out.push(text), stderr: (text) => err.push(text), stdin: async () => '', env: {} }
    return { cli, out, err }
  }

  it('writes the docs.json with --out, names what it did not carry on stderr, and never replaces a file without --force', async () => {
    const dir = await tempDir('ec-convert-')
    await writeFile(
      join(dir, 'mint.json'),
      JSON.stringify(
        { name: 'Acme', colors: { primary: '#0D9373' }, feedback: { suggestEdit: true }, navigation: [{ group: 'A', pages: ['index'] }] },
        null,
        2,
      ),
    )
    const first = io()
    expect(await runConvert([join(dir, 'mint.json'), '--out', join(dir, 'docs.json')], first.cli)).toBe(0)
    expect(first.err).toEqual([
      'not carried: feedback: docs.json has no feedback settings: Mintlify’s dashboard turns feedback on and off',
      `Wrote ${join(dir, 'docs.json')}: 1 setting not carried, 0 carried with a change.`,
    ])
    const written = await readFile(join(dir, 'docs.json'), 'utf8')
    expect(validateDocsConfig(JSON.parse(written)).success).toBe(true)

    await writeFile(join(dir, 'docs.json'), 'mine')
    const again = io()
    expect(await runConvert([join(dir, 'mint.json'), '--out', join(dir, 'docs.json')], again.cli)).toBe(1)
    expect(again.err[0]).toContain('already exists: nothing was written')
    expect(await readFile(join(dir, 'docs.json'), 'utf8')).toBe('mine')
    expect(await runConvert([join(dir, 'mint.json'), '--out', join(dir, 'docs.json'), '--force'], io().cli)).toBe(0)
    expect(await readFile(join(dir, 'docs.json'), 'utf8')).toBe(written)
  })

  it('refuses a docs.json, broken JSON and writing over the file it reads, with a sentence each', async () => {
    const dir = await tempDir('ec-convert-')
    await writeFile(
      join(dir, 'docs.json'),
      JSON.stringify({
        $schema: 'https://mintlify.com/docs.json',
        theme: 'mint',
        name: 'A',
        colors: { primary: '#000' },
        navigation: { pages: ['a'] },
      }),
    )
    await writeFile(join(dir, 'broken.json'), '{ "name": ')
    await writeFile(join(dir, 'mint.json'), '{ "name": "A", "navigation": [] }')
    const docs = io()
    expect(await runConvert([join(dir, 'docs.json')], docs.cli)).toBe(2)
    expect(docs.err).toEqual([`${join(dir, 'docs.json')} is a docs.json already: there is nothing to convert.`])
    const broken = io()
    expect(await runConvert([join(dir, 'broken.json')], broken.cli)).toBe(2)
    expect(broken.err[0]).toMatch(/is not valid JSON at line 1/)
    const same = io()
    expect(await runConvert([join(dir, 'mint.json'), '--out', join(dir, 'mint.json')], same.cli)).toBe(2)
    expect(await readFile(join(dir, 'mint.json'), 'utf8')).toBe('{ "name": "A", "navigation": [] }')
  })

  it('writes nothing when the docs.json would not pass Mintlify’s rules, and says what to fix', async () => {
    const dir = await tempDir('ec-convert-')
    await writeFile(join(dir, 'mint.json'), JSON.stringify({ name: 'Acme', colors: { primary: '#0D9373' }, navigation: [] }))
    const run = io()
    expect(await runConvert([join(dir, 'mint.json'), '--out', join(dir, 'docs.json')], run.cli)).toBe(1)
    expect(run.err[0]).toContain("would not pass Mintlify's rules, so nothing was written")
    expect(run.err[0]).toContain('navigation.groups: must hold at least one group')
    expect(existsSync(join(dir, 'docs.json'))).toBe(false)
  })

  it('answers one envelope with --json', async () => {
    const dir = await tempDir('ec-convert-')
    await writeFile(
      join(dir, 'mint.json'),
      JSON.stringify({ name: 'Acme', colors: { primary: '#0D9373' }, navigation: [{ group: 'A', pages: ['index'] }] }),
    )
    const run = io()
    expect(await runConvert(['--json', join(dir, 'mint.json')], run.cli)).toBe(0)
    expect(JSON.parse(run.out[0]!)).toMatchObject({
      ok: true,
      value: { out: null, dropped: [], docs: { theme: 'mint', navigation: { groups: [{ group: 'A', pages: ['index'] }] } } },
    })
  })
})
