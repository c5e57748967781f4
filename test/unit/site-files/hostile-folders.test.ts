import { spawn } from 'node:child_process'
import { randomBytes } from 'node:crypto'
import { mkdir, writeFile } from 'node:fs/promises'
import { join, resolve } from 'node:path'
import { beforeAll, describe, expect, it } from 'vitest'
import { nodeScript } from '../../helpers/node-script'
import { tempDir } from './helpers'

// Folders made to exhaust `validate`, run as the command runs (a process of its own): each must
// answer with its sentence. A process still running after a minute is killed and fails the test;
// how fast and how small they stay is measured in bench/hostile-folders.bench.ts, not here.

const GIVE_UP_MS = 60_000
let cli: string

beforeAll(async () => {
  cli = await nodeScript(resolve('test/helpers/scripts/cli.ts'))
}, 60_000)

function validate(...args: string[]): Promise<{ code: number | null; stdout: string; killed: boolean }> {
  return new Promise((done) => {
    const child = spawn(process.execPath, [cli, 'validate', ...args], { stdio: ['ignore', 'pipe', 'pipe'] })
    let stdout = ''
    let killed = false
    child.stdout.on('data', (chunk: Buffer) => (stdout += chunk.toString()))
    child.stderr.on('data', (chunk: Buffer) => (stdout += chunk.toString()))
    const timer = setTimeout(() => {
      killed = true
      child.kill('SIGKILL')
    }, GIVE_UP_MS)
    child.on('exit', (code) => {
      clearTimeout(timer)
      done({ code, stdout, killed })
    })
  })
}

/** docs.json names a.json `count` times, and a.json names b.json `count` times: three small files. */
async function fanOutFolder(count: number): Promise<string> {
  const root = await tempDir('ec-fan-out-')
  const refs = (file: string) => Array.from({ length: count }, () => ({ $ref: file }))
  await writeFile(
    join(root, 'docs.json'),
    JSON.stringify({ theme: 'mint', name: 'Fan', colors: { primary: '#112233' }, navigation: { groups: refs('a.json') } }),
  )
  await writeFile(join(root, 'a.json'), JSON.stringify({ group: 'A', pages: refs('b.json') }))
  await writeFile(join(root, 'b.json'), JSON.stringify({ group: 'B', pages: Array.from({ length: 3500 }, (_, index) => `page-${index}`) }))
  return root
}

describe('validate on folders made to exhaust it', () => {
  it(
    'names the cap and the chain of a $ref fan-out of 1,000 × 1,000 (three files, 80 kB) and stops there',
    { timeout: GIVE_UP_MS + 30_000 },
    async () => {
      const root = await fanOutFolder(1000)
      const run = await validate('--no-files', join(root, 'docs.json'))
      expect(run.killed).toBe(false)
      expect(run.code).toBe(1)
      expect(run.stdout).toMatch(
        /: navigation\.groups\[0\]\.pages\[\d+\]\.\$ref: names b\.json, which would take the document past 250,000 values or 10 MB of JSON \(docs\.json → a\.json → b\.json\): \$ref files are followed up to that much in all, so it is not followed, nor 1,9\d\d more after it\n/,
      )
      expect(run.stdout).toMatch(/Checked 1 file: 0 valid, 1 invalid \(1 error, 0 warnings\)\.\n$/)
    },
  )

  it(
    'says at once of a page that is not text, too large to be a page, or not UTF-8, and parses none of them',
    { timeout: GIVE_UP_MS + 30_000 },
    async () => {
      const root = await tempDir('ec-binary-pages-')
      await mkdir(join(root, 'guides'))
      await writeFile(
        join(root, 'docs.json'),
        JSON.stringify({
          theme: 'mint',
          name: 'Pages',
          colors: { primary: '#112233' },
          navigation: {
            pages: ['index', 'guides/huge', 'guides/binary', 'guides/latin', 'guides/quoted', 'guides/listed', 'guides/nested'],
          },
        }),
      )
      // Anchors of a page that was not read are not known, so links to them are not judged; a read
      // page's missing anchor still is.
      await writeFile(
        join(root, 'index.mdx'),
        '# Home\n\nSee [the guide](/guides/latin), [a flag](/guides/huge#flag--output) and [a part](/guides/nested#gone).\n',
      )
      // Random bytes parse as MDX for minutes (400 kB took 9 s, 2 MB past 120 s before they were refused).
      await writeFile(join(root, 'guides', 'huge.mdx'), randomBytes(2_000_000))
      await writeFile(join(root, 'guides', 'binary.mdx'), Buffer.concat([Buffer.from('# Title\n\n'), randomBytes(400_000)]))
      await writeFile(join(root, 'guides', 'latin.mdx'), Buffer.concat([Buffer.from('# Caf'), Buffer.from([0xe9]), Buffer.from('\n')]))
      // Text, but nested so deep that the parser's time grows with the square of the depth (minutes).
      await writeFile(join(root, 'guides', 'quoted.mdx'), `# Quoted\n\n${'>'.repeat(100_000)}\n`)
      await writeFile(
        join(root, 'guides', 'listed.mdx'),
        `# Listed\n\n${Array.from({ length: 300 }, (_, depth) => `${' '.repeat(depth * 2)}- level ${depth}`).join('\n')}\n`,
      )
      // Ordinary nesting, in a fence and out of it, is checked as ever.
      await writeFile(
        join(root, 'guides', 'nested.mdx'),
        `# Nested\n\n> - a\n>   - b\n>     1. c\n\n\`\`\`yaml\n${' '.repeat(80)}- deep: yaml\n\`\`\`\n\n[gone](/gone)\n`,
      )
      const run = await validate(join(root, 'docs.json'))
      expect(run.killed).toBe(false)
      expect(run.code).toBe(0)
      expect(run.stdout.split('\n').filter((line) => /index\.mdx:/.test(line))).toEqual([
        expect.stringMatching(/index\.mdx:3: warning: links to \/guides\/nested#gone, but that page has no heading with the anchor #gone$/),
      ])
      const pageLines = run.stdout.split('\n').filter((line) => /guides[/\\]/.test(line) && !/index\.mdx:/.test(line))
      expect(pageLines).toEqual([
        expect.stringMatching(
          /guides[/\\]binary\.mdx:\d+: warning: is not text: it holds NUL bytes, as binary files do, where a page is Markdown or MDX text; it was not checked$/,
        ),
        expect.stringMatching(/guides[/\\]huge\.mdx:1: warning: is larger than 500 kB: too large to be a page, so it was not checked$/),
        expect.stringMatching(
          /guides[/\\]latin\.mdx:1: warning: is not UTF-8 text: line 1 holds the byte 0xE9, which UTF-8 does not allow there\. Save it as UTF-8 to use it here\.$/,
        ),
        expect.stringMatching(
          /guides[/\\]listed\.mdx:35: warning: nests blockquotes or lists more than 32 levels deep, which takes the MDX parser minutes: it was not checked$/,
        ),
        expect.stringMatching(
          /guides[/\\]nested\.mdx:11: warning: links to \/gone, which is not a page of the site \(no file in the docs folder, no page its OpenAPI files generate\)$/,
        ),
        expect.stringMatching(
          /guides[/\\]quoted\.mdx:3: warning: nests blockquotes or lists more than 32 levels deep, which takes the MDX parser minutes: it was not checked$/,
        ),
      ])
    },
  )
})
