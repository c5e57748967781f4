import { spawn } from 'node:child_process'
import { existsSync, readdirSync, readFileSync } from 'node:fs'
import { mkdtemp } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { dirname, join, resolve } from 'node:path'
import { describe, expect, it } from 'vitest'
import pkg from '../../../package.json'
import { main } from '../../../src-main/cli/index'
import type { CliIo } from '../../../src-main/cli/usage'

/*
 * The front door and the docs/ pages stay true: every link lands on a file (and a heading), every
 * `npm run` script and `embed-console` command they show exists with the options they show, and
 * the README's script against the sandbox runs as printed.
 */

const PAGES = [
  'README.md',
  'CHANGELOG.md',
  ...readdirSync('docs')
    .filter((name) => name.endsWith('.md'))
    .map((name) => `docs/${name}`),
]
const text = (page: string) => readFileSync(page, 'utf8')

/** GitHub's anchor of a heading. */
const anchorOf = (heading: string) =>
  heading
    .trim()
    .toLowerCase()
    .replace(/[^\p{L}\p{N}\- ]/gu, '')
    .replace(/ /g, '-')

const anchorsIn = (page: string) => new Set([...text(page).matchAll(/^#{1,6} (.+)$/gm)].map((match) => anchorOf(match[1]!)))

function io(): CliIo & { out: string[]; err: string[] } {
  const out: string[] = []
  const err: string[] = []
  return { out, err, env: {}, stdout: (line) => out.push(line), stderr: (line) => err.push(line), stdin: async () => '' }
}

/** The `embed-console …` commands a page shows, in code blocks and inline code. */
function commandsIn(page: string): string[][] {
  const found: string[][] = []
  const code = [...text(page).matchAll(/```sh\n([\s\S]*?)```/g)].flatMap((match) => match[1]!.split('\n'))
  const inline = [...text(page).matchAll(/`((?:npx )?embed-console [^`]+)`/g)].map((match) => match[1]!)
  for (const line of [...code, ...inline]) {
    const words = line.replace(/^.*?(?:npx )?embed-console /, 'embed-console ').split(/\s+/)
    if (words[0] !== 'embed-console') continue
    found.push(words.slice(1))
  }
  return found
}

describe('the documentation', () => {
  it('keeps the README a front door: at most 200 lines', () => {
    expect(text('README.md').split('\n').length).toBeLessThanOrEqual(200)
  })

  it('links only to files and headings that exist', () => {
    const broken: string[] = []
    for (const page of PAGES) {
      for (const [, target] of text(page).matchAll(/\]\(([^)\s]+)\)/g)) {
        if (/^(https?:|mailto:)/.test(target!)) continue
        const [file, anchor] = target!.split('#')
        const path = file ? resolve(dirname(page), file) : resolve(page)
        if (!existsSync(path)) broken.push(`${page}: ${target} (no file)`)
        else if (anchor && path.endsWith('.md') && !anchorsIn(path).has(anchor)) broken.push(`${page}: ${target} (no heading)`)
      }
    }
    expect(broken).toEqual([])
  })

  it('shows only npm scripts that exist', () => {
    const missing = PAGES.flatMap((page) =>
      [...text(page).matchAll(/npm run ([\w:-]+)/g)]
        .map((match) => match[1]!)
        .filter((script) => !(script in pkg.scripts))
        .map((script) => `${page}: npm run ${script}`),
    )
    expect(missing).toEqual([])
  })

  it('shows only commands and options the CLI has', async () => {
    const problems: string[] = []
    const helps = new Map<string, string>()
    const helpOf = async (path: string[]) => {
      const key = path.join(' ')
      if (!helps.has(key)) {
        const run = io()
        const code = await main([...path, '--help'], run)
        helps.set(key, code === 0 ? run.out.join('\n') : '')
      }
      return helps.get(key)!
    }
    for (const page of PAGES) {
      for (const words of commandsIn(page)) {
        const [command, sub] = words
        if (!command || command.startsWith('-')) continue
        // A subcommand written as a list (get-or-create|update|…) is checked under its first name.
        const subcommand = sub && /^[a-z][\w-]*(\\?\|[a-z][\w-]*)*$/.test(sub) ? sub.split(/\\?\|/)[0]! : null
        let help = subcommand ? await helpOf([command, subcommand]) : ''
        if (!help) help = await helpOf([command])
        if (!help) {
          problems.push(`${page}: embed-console ${command} (no such command)`)
          continue
        }
        for (const flag of words.filter((word) => word.startsWith('--')).map((word) => word.replace(/[=\]).,]+.*$/, ''))) {
          if (flag !== '--help' && flag !== '--version' && !help.includes(flag))
            problems.push(`${page}: embed-console ${command} ${flag} (not an option)`)
        }
      }
    }
    expect(problems).toEqual([])
  })

  it('runs the README’s script against the sandbox as printed', async () => {
    const script = /```sh\n(npx embed-console sandbox[\s\S]*?)```/.exec(text('README.md'))![1]!.trim().split('\n')
    expect(script).toHaveLength(3)
    const dir = await mkdtemp(join(tmpdir(), 'ec-readme-'))
    // The port printed there may be taken here: any free one, otherwise the same command.
    const sandboxArgs = script[0]!
      .replace(/^npx embed-console /, '')
      .replace(/ &$/, '')
      .replace('--port 8765', '--port 0')
      .replace('/tmp/sandbox.db', join(dir, 'sandbox.db'))
      .split(' ')
    const child = spawn(process.execPath, ['bin/embed-console.js', ...sandboxArgs], { stdio: ['ignore', 'pipe', 'inherit'] })
    try {
      const { baseUrl, token } = await new Promise<{ baseUrl: string; token: string }>((done, fail) => {
        let output = ''
        child.stdout!.on('data', (chunk: Buffer) => {
          output += chunk.toString('utf8')
          const baseUrl = /running at (\S+)/.exec(output)?.[1]
          const token = /Customer API token: (\S+)/.exec(output)?.[1]
          if (baseUrl && token) done({ baseUrl, token })
        })
        child.once('exit', (code) => fail(new Error(`the sandbox exited with ${code}`)))
      })
      expect(script[1]).toMatch(/^export EMBED_CONSOLE_TOKEN=/)
      const call = script[2]!
        .replace(/^npx embed-console /, '')
        .replace('http://127.0.0.1:8765', baseUrl)
        .split(' ')
      const run = { ...io(), env: { EMBED_CONSOLE_TOKEN: token } }
      expect(await main(call, run)).toBe(0)
      expect(JSON.parse(run.out.join('\n'))).toMatchObject({ success: 1, user_group: { provided_id: 'acme', name: 'Acme' } })
    } finally {
      child.kill('SIGINT')
    }
  })
})
