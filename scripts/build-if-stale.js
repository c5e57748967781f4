#!/usr/bin/env node
// Builds the app only when what it is built from changed since the last build: `npm start`,
// `npm run web` and `npm run sandbox` then start at once on a build that is current, instead of
// spending most of their time rebuilding it. What it is built from is fingerprinted by path, size
// and modification time (the sources, the build's configuration, and the installed packages
// through npm's own record of them); a file added, removed or saved again changes it. With
// --force it builds whatever the fingerprint says (`npm run build`), and records it.
import { spawnSync } from 'node:child_process'
import { createHash } from 'node:crypto'
import { existsSync, readdirSync, readFileSync, statSync, writeFileSync } from 'node:fs'
import { join, relative } from 'node:path'
import { fileURLToPath } from 'node:url'

const root = fileURLToPath(new URL('..', import.meta.url))
const SOURCE_DIRS = ['src-main', 'src-renderer', 'src-shared']
const SOURCE_FILES = ['electron.vite.config.ts', 'package.json', 'tsconfig.json', 'node_modules/.package-lock.json']
/** What a start needs from a build: without any of them, it builds. */
const OUTPUTS = ['out/main/cli.js', 'out/main/index.js', 'out/preload/preload.cjs', 'out/renderer/index.html']
const FINGERPRINT = join(root, 'out', '.build-fingerprint')

function filesUnder(dir) {
  if (!existsSync(dir)) return []
  return readdirSync(dir, { recursive: true, withFileTypes: true })
    .filter((entry) => entry.isFile())
    .map((entry) => join(entry.parentPath, entry.name))
}

function fingerprint() {
  const files = [...SOURCE_DIRS.flatMap((dir) => filesUnder(join(root, dir))), ...SOURCE_FILES.map((file) => join(root, file))]
  const hash = createHash('sha256')
  let count = 0
  for (const file of files.sort()) {
    const stats = existsSync(file) ? statSync(file) : undefined
    if (stats) count += 1
    hash.update(`${relative(root, file)}\0${stats ? `${stats.size}\0${stats.mtimeMs}` : 'absent'}\n`)
  }
  return { digest: hash.digest('hex'), count }
}

const force = process.argv.includes('--force')
// Taken before building: a file saved while the build runs makes the next start build again.
const { digest, count } = fingerprint()
const recorded = existsSync(FINGERPRINT) ? readFileSync(FINGERPRINT, 'utf8').trim() : ''
if (!force && recorded === digest && OUTPUTS.every((output) => existsSync(join(root, output)))) {
  process.stderr.write(`The build is current (${count} files unchanged since it was made): not building it again.\n`)
  process.exit(0)
}
const built = spawnSync(
  join(root, 'node_modules', '.bin', process.platform === 'win32' ? 'electron-vite.cmd' : 'electron-vite'),
  ['build'],
  {
    cwd: root,
    stdio: 'inherit',
    shell: process.platform === 'win32',
  },
)
if (built.status !== 0) process.exit(built.status ?? 1)
writeFileSync(FINGERPRINT, `${digest}\n`)
