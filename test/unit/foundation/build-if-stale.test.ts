import { spawnSync } from 'node:child_process'
import { chmod, copyFile, mkdir, mkdtemp, readFile, rm, utimes, writeFile } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { describe, expect, it } from 'vitest'

// The script in a folder of its own, with a stand-in for electron-vite that writes what a build
// writes and counts how often it was run: what is measured is whether a start builds.
async function project() {
  const root = await mkdtemp(join(tmpdir(), 'ec-build-if-stale-'))
  await mkdir(join(root, 'scripts'))
  await copyFile('scripts/build-if-stale.js', join(root, 'scripts', 'build-if-stale.js'))
  for (const dir of ['src-main', 'src-renderer/app', 'src-shared', 'node_modules/.bin']) await mkdir(join(root, dir), { recursive: true })
  for (const file of ['src-main/index.ts', 'src-renderer/app/App.tsx', 'src-shared/contract.ts'])
    await writeFile(join(root, file), `// ${file}\n`)
  await writeFile(join(root, 'package.json'), '{ "type": "module" }\n')
  const builder = join(root, 'node_modules', '.bin', 'electron-vite')
  await writeFile(
    builder,
    [
      '#!/bin/sh',
      'echo build >> builds.log',
      'mkdir -p out/main out/preload out/renderer',
      'touch out/main/cli.js out/main/index.js out/preload/preload.cjs out/renderer/index.html',
      'exit "${FAIL_BUILD:-0}"',
    ].join('\n'),
  )
  await chmod(builder, 0o755)
  const start = (args: string[] = [], env: Record<string, string> = {}) =>
    spawnSync(process.execPath, [join(root, 'scripts', 'build-if-stale.js'), ...args], {
      cwd: root,
      encoding: 'utf8',
      env: { ...process.env, ...env },
    })
  const builds = async () => (await readFile(join(root, 'builds.log'), 'utf8').catch(() => '')).split('\n').filter(Boolean).length
  return { root, start, builds }
}

describe.skipIf(process.platform === 'win32')('building only when the build is stale', () => {
  it('builds the first time, not again while nothing changed, and again after a change, a removal or a lost output', async () => {
    const { root, start, builds } = await project()
    const first = start()
    expect(first.stderr).toBe('')
    expect(first.status).toBe(0)
    expect(await builds()).toBe(1)

    const current = start()
    expect(current.status).toBe(0)
    expect(current.stderr).toBe('The build is current (4 files unchanged since it was made): not building it again.\n')
    expect(await builds()).toBe(1)

    // A source saved again (its time changes, its size need not).
    const later = new Date(Date.now() + 5_000)
    await utimes(join(root, 'src-renderer/app/App.tsx'), later, later)
    start()
    expect(await builds()).toBe(2)
    start()
    expect(await builds()).toBe(2)

    // A source removed, a source added, the installed packages changed.
    await rm(join(root, 'src-shared/contract.ts'))
    start()
    expect(await builds()).toBe(3)
    await writeFile(join(root, 'src-main/new-part.ts'), '// new\n')
    start()
    expect(await builds()).toBe(4)
    await writeFile(join(root, 'node_modules/.package-lock.json'), '{}\n')
    start()
    expect(await builds()).toBe(5)

    // An output gone; --force (npm run build) builds whatever the fingerprint says.
    await rm(join(root, 'out/main/cli.js'))
    start()
    expect(await builds()).toBe(6)
    start(['--force'])
    expect(await builds()).toBe(7)
  })

  it('records nothing when the build fails, so the next start builds again', async () => {
    const { start, builds } = await project()
    const failed = start([], { FAIL_BUILD: '3' })
    expect(failed.status).toBe(3)
    start()
    expect(await builds()).toBe(2)
    start()
    expect(await builds()).toBe(2)
  })
})
