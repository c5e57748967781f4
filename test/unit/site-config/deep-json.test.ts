import { mkdtemp, writeFile } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { describe, expect, it } from 'vitest'
import { main } from '../../../src-main/cli/index'
import type { CliIo } from '../../../src-main/cli/usage'
import { jsonDepthExceededAt, jsonTextTooDeep, valueTooDeep } from '../../../src-shared/json/depth'
import { checkConfigText } from '../../../src-shared/site-config/config-check'
import { MAX_SITE_JSON_DEPTH, parseJsonText } from '../../../src-shared/site-config/json-text'

/** A site.json whose navigation nests `depth` arrays: a careless generator, or a hostile file. */
const nested = (depth: number) => `{"name": "Deep", "navigation": ${'['.repeat(depth)}${']'.repeat(depth)}}`

function io(): CliIo & { out: string[]; err: string[] } {
  const out: string[] = []
  const err: string[] = []
  return { out, err, env: {}, stdout: (text) => out.push(text), stderr: (text) => err.push(text), stdin: async () => '' }
}

describe('JSON nested too deep', () => {
  it('counts arrays and objects alike, and closing either ends a level', () => {
    expect(jsonDepthExceededAt('[1]', 1)).toBe(-1)
    expect(jsonDepthExceededAt('{"a": 1}', 1)).toBe(-1)
    expect(jsonDepthExceededAt('[[1]]', 1)).toBe(1)
    expect(jsonDepthExceededAt('{"a": {"b": 1}}', 1)).toBe(6)
    expect(jsonDepthExceededAt('[[]] [[]] [[]]', 2)).toBe(-1)
    expect(jsonDepthExceededAt('[{}] {[]} [{}]', 2)).toBe(-1)
    expect(jsonDepthExceededAt('[{}] [[[]]]', 2)).toBe(7)
    expect(jsonTextTooDeep('[[1]]', 2)).toBe(false)
    expect(jsonTextTooDeep('[[[1]]]', 2)).toBe(true)
  })

  it('skips what strings hold, and only what they hold', () => {
    expect(jsonDepthExceededAt('["[[[", "{{{"]', 1)).toBe(-1)
    expect(jsonDepthExceededAt('["]]]]", [[1]]]', 2)).toBe(10)
    expect(jsonDepthExceededAt('["a\\"]", [1]]', 1)).toBe(9)
    expect(jsonDepthExceededAt('"x" [[1]]', 1)).toBe(5)
  })

  it('finds a value nested too deep, with shared parts and cycles, and lets a shallow one pass', () => {
    expect(valueTooDeep(null, 0)).toBe(false)
    expect(valueTooDeep('text', 0)).toBe(false)
    expect(valueTooDeep(5, 0)).toBe(false)
    expect(valueTooDeep([], 0)).toBe(true)
    expect(valueTooDeep([[]], 2)).toBe(false)
    expect(valueTooDeep([[[]]], 2)).toBe(true)
    expect(valueTooDeep({ a: { b: 'x', c: null } }, 2)).toBe(false)
    const cycle: unknown[] = []
    cycle.push(cycle)
    expect(valueTooDeep(cycle, 64)).toBe(true)
    // Nodes counted: three are allowed at three, four are too many.
    expect(valueTooDeep([[], []], 64, 3)).toBe(false)
    expect(valueTooDeep([[], [], []], 64, 3)).toBe(true)
  })

  it('is found by a scan that reads no value, strings and escaped quotes skipped', () => {
    expect(jsonDepthExceededAt('[[1]]', 2)).toBe(-1)
    expect(jsonDepthExceededAt('[[[1]]]', 2)).toBe(2)
    // Brackets inside strings, after an escaped quote too, are text, not nesting.
    expect(jsonDepthExceededAt('["\\"[[[[", {"a": "]]]\\\\"}]', 2)).toBe(-1)
    expect(jsonDepthExceededAt('["\\\\", [[0]]]', 2)).toBe(8)
  })

  it('is refused before parsing, with the place and a sentence, where the rest would overflow the stack', () => {
    const parsed = parseJsonText(nested(100_000))
    expect(parsed).toEqual({
      ok: false,
      error: {
        message: 'no site configuration is, so Embed Console reads it only as text',
        line: 1,
        column: 31 + MAX_SITE_JSON_DEPTH,
        tooDeep: true,
      },
    })
    expect(checkConfigText(nested(100_000), { format: 'mint', rules: 'spec' })).toMatchObject({ valid: false })
    // The deepest real file nests 19 levels; 64 are read.
    expect(parseJsonText(nested(MAX_SITE_JSON_DEPTH - 1)).ok).toBe(true)
  })

  it('embed-console validate answers a 100,000-deep file with a sentence and exit 1, not a stack overflow', async () => {
    const dir = await mkdtemp(join(tmpdir(), 'ec-deep-'))
    const file = join(dir, 'site.json')
    await writeFile(file, nested(100_000))
    const run = io()
    expect(await main(['validate', file, '--no-files'], run)).toBe(1)
    expect(run.out.join('\n')).toContain(`nested deeper than ${MAX_SITE_JSON_DEPTH} levels`)
    expect([...run.out, ...run.err].join('\n')).not.toMatch(/call stack/i)
  })
})
