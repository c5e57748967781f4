import { cp, mkdtemp, readFile } from 'node:fs/promises'
import { createRequire } from 'node:module'
import { tmpdir } from 'node:os'
import { join, resolve } from 'node:path'
import { describe, expect, it, vi } from 'vitest'

/*
 * Doyensec's Electronegativity over the app's sources (main, preload, renderer, shared), in
 * `npm test`. Every finding must be listed with its reason in security/electronegativity-
 * allowlist.json, and every listed entry must still match a finding.
 *
 * Offline and deterministic: the scanner's only network use (fetching updated translations,
 * and Electron's release notes for the "available security fixes" check) is cut off by handing
 * it a `got` that refuses at once, and that one check, which needs the network, is left out.
 */
const require = createRequire(import.meta.url)
const root = resolve(import.meta.dirname, '../../..')

interface Finding {
  id: string
  file: string
  location: { line: number; column: number }
  description: string
}
interface Accepted {
  check: string
  file: string
  reason: string
}

function offlineScanner() {
  const translations = require.resolve('@doyensec/electronegativity/dist/locales/i18n.js')
  const gotPath = createRequire(translations).resolve('got')
  const refuse = Object.assign(() => Promise.reject(new Error('offline: the scan runs without the network')), {
    head: () => Promise.reject(new Error('offline: the scan runs without the network')),
  })
  require.cache[gotPath] = { id: gotPath, filename: gotPath, loaded: true, exports: refuse } as unknown as NodeJS.Module
  const scanner = require('@doyensec/electronegativity') as { default?: unknown }
  return (scanner.default ?? scanner) as (
    options: Record<string, unknown>,
    forCli: boolean,
  ) => Promise<{ issues: Finding[]; errors: Array<{ file: string; message: string }> }>
}

describe('Electronegativity scan', () => {
  it('finds nothing that is not accepted with a reason, and every accepted finding is still there', { timeout: 60_000 }, async () => {
    // The scanner walks a folder: one holding just the app's sources (not tests, not node_modules).
    const input = await mkdtemp(join(tmpdir(), 'ec-electronegativity-'))
    for (const folder of ['src-main', 'src-renderer', 'src-shared']) await cp(join(root, folder), join(input, folder), { recursive: true })
    const electronVersion = (JSON.parse(await readFile(join(root, 'node_modules/electron/package.json'), 'utf8')) as { version: string })
      .version
    // The scanner prints its progress and "could not retrieve translations": not the test's output.
    const quiet = vi.spyOn(console, 'log').mockImplementation(() => {})
    let result: Awaited<ReturnType<ReturnType<typeof offlineScanner>>>
    try {
      result = await offlineScanner()(
        {
          input,
          isRelative: true,
          customScan: [],
          excludeFromScan: ['AvailableSecurityFixesGlobalCheck'],
          electronVersionOverride: electronVersion,
          parserPlugins: [],
        },
        false,
      )
    } finally {
      quiet.mockRestore()
    }
    expect(result.errors, 'files the scanner could not parse').toEqual([])

    const { accepted } = JSON.parse(await readFile(join(root, 'security/electronegativity-allowlist.json'), 'utf8')) as {
      accepted: Accepted[]
    }
    for (const entry of accepted) expect(entry.reason.length, `${entry.check}: a reason`).toBeGreaterThan(40)
    const isAccepted = (finding: Finding) =>
      accepted.some((entry) => entry.check === finding.id && entry.file === finding.file.replaceAll('\\', '/'))
    const unexpected = result.issues
      .filter((finding) => !isAccepted(finding))
      .map((finding) => `${finding.id} at ${finding.file}:${finding.location.line}: ${finding.description}`)
    expect(unexpected, 'findings not in security/electronegativity-allowlist.json').toEqual([])
    const stale = accepted.filter(
      (entry) => !result.issues.some((finding) => finding.id === entry.check && finding.file.replaceAll('\\', '/') === entry.file),
    )
    expect(
      stale.map((entry) => `${entry.check} in ${entry.file}`),
      'accepted findings the scan no longer reports: remove them',
    ).toEqual([])
  })
})
