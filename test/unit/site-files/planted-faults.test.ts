import { cp, readdir, stat } from 'node:fs/promises'
import { join } from 'node:path'
import { describe, expect, it } from 'vitest'
import type { CliIo } from '../../../src-main/cli/usage'
import { runValidate } from '../../../src-main/cli/validate-command'
import { plantFaults } from '../../helpers/planted-faults'
import { tempDir } from './helpers'

// Five faults a writer makes, planted in docs folders, each of which `validate --json` must name
// with its place: in folders built for the tests (docs.json and mint.json), and in real docs
// repositories when REAL_DOCS_FOLDERS names a folder holding copies of them (one per subfolder).
const FIXTURES = join(import.meta.dirname, '../../fixtures/site-config')

interface Problem {
  path: string
  message: string
  file?: string
  line?: number
}

async function validateJson(config: string): Promise<{ errors: Problem[]; warnings: Problem[] }> {
  const out: string[] = []
  const io: CliIo = { stdout: (text) => out.push(text), stderr: () => {}, stdin: async () => '', env: {} }
  await runValidate(['--json', config], io)
  const [report] = JSON.parse(out[0]!) as { errors: Problem[]; warnings: Problem[] }[]
  return report!
}

async function plantedFaultsNamed(folder: string) {
  const root = await tempDir('ec-planted-')
  await cp(folder, root, { recursive: true })
  const config = (await readdir(root)).includes('docs.json') ? 'docs.json' : 'mint.json'
  const before = await validateJson(join(root, config))
  const faults = await plantFaults(root, config)
  const after = await validateJson(join(root, config))
  const problems = [...after.errors, ...after.warnings]
  return { before, faults, unnamed: faults.filter((fault) => !problems.some(fault.named)).map((fault) => fault.fault) }
}

describe('planted faults in docs folders built for the tests', () => {
  it('a docs.json folder: all five named, each with its place; nothing reported before', async () => {
    const { before, faults, unnamed } = await plantedFaultsNamed(join(FIXTURES, 'docs-json-site'))
    expect(before).toMatchObject({ errors: [], warnings: [] })
    expect(faults).toHaveLength(5)
    expect(unnamed).toEqual([])
  })

  it('a mint.json folder: all five named', async () => {
    const { faults, unnamed } = await plantedFaultsNamed(join(FIXTURES, 'docs-site'))
    expect(faults).toHaveLength(5)
    expect(unnamed).toEqual([])
  })
})

describe('a real docs folder, skeletonised (box/box-mintlify: languages, API pages, redirects)', () => {
  it('warns of what Mintlify would break on only, and names all five planted faults', async () => {
    const { before, faults, unnamed } = await plantedFaultsNamed(join(FIXTURES, 'real-skeletons/box-mintlify'))
    // Both real: a link to a page that is neither in the folder nor redirected, and an anchor no heading has.
    // Not warned of: anchors on API pages (#param-language), a Japanese heading's anchor, multi-line front matter.
    expect(before.errors).toEqual([])
    expect(before.warnings.map((problem) => problem.message)).toEqual([
      'links to /guides/applications/app-types/select, which is not a page of the site (no file in the docs folder, no page its OpenAPI files generate)',
      'links to /guides/authentication/jwt/without-sdk/#client-credentials-grant, but that page has no heading with the anchor #client-credentials-grant',
    ])
    expect(faults).toHaveLength(5)
    expect(unnamed).toEqual([])
  })
})

const REAL = process.env.REAL_DOCS_FOLDERS
if (!REAL) console.warn('Skipping planted faults in real docs folders: set REAL_DOCS_FOLDERS to a folder of docs repositories.')
describe.skipIf(!REAL)('planted faults in real docs folders (REAL_DOCS_FOLDERS)', () => {
  it('are all named', { timeout: 1_200_000 }, async () => {
    const folders = []
    for (const name of (await readdir(REAL!)).sort()) if ((await stat(join(REAL!, name))).isDirectory()) folders.push(name)
    let planted = 0
    const unnamed: string[] = []
    for (const name of folders) {
      const result = await plantedFaultsNamed(join(REAL!, name))
      planted += result.faults.length
      unnamed.push(...result.unnamed.map((fault) => `${name}: ${fault}`))
    }
    console.warn(`Planted faults named in ${folders.length} real folders: ${planted - unnamed.length} of ${planted}.`)
    expect(unnamed).toEqual([])
  })
})
