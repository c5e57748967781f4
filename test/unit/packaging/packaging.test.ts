import { spawn } from 'node:child_process'
import { existsSync, readdirSync, readFileSync } from 'node:fs'
import { chmod, mkdir, mkdtemp, writeFile } from 'node:fs/promises'
import { createRequire } from 'node:module'
import { tmpdir } from 'node:os'
import { join, resolve } from 'node:path'
import { FuseState, FuseV1Options, getCurrentFuseWire } from '@electron/fuses'
import { beforeAll, describe, expect, it } from 'vitest'
import config from '../../../packaging/electron-builder.config'

/*
 * The Electron runtime cannot be downloaded here, so packaging is checked as far as it goes
 * without it: the configuration against electron-builder's own schema, and a real
 * `electron-builder --linux dir` run with a stand-in for the Electron distribution (a file
 * carrying the fuse wire where Electron's binary has it). That run builds the real app.asar, runs
 * the afterPack hook (which flips the fuses of the stand-in) and lays out the resources folder as
 * an AppImage or deb would hold it. What it cannot show: that the packaged app starts.
 */
const require = createRequire(import.meta.url)
const root = resolve(import.meta.dirname, '../../..')
const SENTINEL = 'dL7pKGdnNz796PbbjQWNKmHXBZaB9tsX'
const asar = require('@electron/asar') as {
  listPackage(path: string, options: { isPack: boolean }): string[]
  extractFile(archive: string, file: string): Buffer
}

describe('packaging configuration', () => {
  it('passes electron-builder’s own validation', async () => {
    const { validateConfiguration } = require('app-builder-lib/out/util/config/config') as {
      validateConfiguration(config: unknown, debugLogger: { isEnabled: boolean; add(): void }): Promise<void>
    }
    await expect(validateConfiguration(config, { isEnabled: false, add() {} })).resolves.toBeUndefined()
  })

  it('targets AppImage and deb, dmg, and an NSIS installer', () => {
    expect(config.linux?.target).toEqual(['AppImage', 'deb'])
    expect(config.mac?.target).toEqual(['dmg'])
    expect(config.win?.target).toEqual(['nsis'])
  })
})

describe('a Linux build with a stand-in Electron binary', () => {
  let unpacked: string
  let asarFiles: string[]

  beforeAll(async () => {
    if (!existsSync(join(root, 'out/main/index.js'))) throw new Error('Run `npm run build` first: the package is made from out/.')
    const work = await mkdtemp(join(tmpdir(), 'ec-pack-'))
    const electronDist = join(work, 'electron-dist')
    await mkdir(electronDist)
    // Every fuse "on" to start with, as an unflipped wire might be.
    const binary = join(electronDist, 'electron')
    await writeFile(
      binary,
      Buffer.concat([
        Buffer.from('#!/bin/sh\n'),
        Buffer.alloc(128),
        Buffer.from(SENTINEL),
        Buffer.from([1, 9]),
        Buffer.from('111111111'),
        Buffer.alloc(128),
      ]),
    )
    await chmod(binary, 0o755)
    const output = join(work, 'release')
    const cli = require.resolve('electron-builder/cli.js')
    const args = [
      cli,
      '--linux',
      'dir',
      '--config',
      'packaging/electron-builder.config.ts',
      `-c.electronDist=${electronDist}`,
      `-c.directories.output=${output}`,
    ]
    await new Promise<string>((done, fail) => {
      const child = spawn(process.execPath, args, { cwd: root, stdio: ['ignore', 'pipe', 'pipe'] })
      let text = ''
      child.stdout.on('data', (chunk: Buffer) => (text += chunk.toString('utf8')))
      child.stderr.on('data', (chunk: Buffer) => (text += chunk.toString('utf8')))
      child.on('exit', (code) => (code === 0 ? done(text) : fail(new Error(`electron-builder exited with ${code}:\n${text}`))))
    })
    unpacked = join(output, 'linux-unpacked')
    asarFiles = asar.listPackage(join(unpacked, 'resources/app.asar'), { isPack: false }).map((path) => path.replaceAll('\\', '/'))
  }, 120_000)

  it('flips the fuses of the binary in the afterPack hook', async () => {
    const wire = await getCurrentFuseWire(join(unpacked, 'embed-console'))
    const on = (fuse: FuseV1Options) => wire[fuse] === FuseState.ENABLE
    expect(on(FuseV1Options.RunAsNode)).toBe(false)
    expect(on(FuseV1Options.EnableNodeOptionsEnvironmentVariable)).toBe(false)
    expect(on(FuseV1Options.EnableNodeCliInspectArguments)).toBe(false)
    expect(on(FuseV1Options.EnableCookieEncryption)).toBe(true)
    expect(on(FuseV1Options.EnableEmbeddedAsarIntegrityValidation)).toBe(true)
    expect(on(FuseV1Options.OnlyLoadAppFromAsar)).toBe(true)
    expect(on(FuseV1Options.GrantFileProtocolExtraPrivileges)).toBe(false)
  })

  it('puts the built app in app.asar, and no loose app folder beside it', () => {
    for (const file of ['/package.json', '/out/main/index.js', '/out/preload/preload.cjs', '/out/renderer/index.html'])
      expect(asarFiles).toContain(file)
    expect(existsSync(join(unpacked, 'resources/app'))).toBe(false)
    expect(asarFiles.some((file) => file.startsWith('/src-') || file.startsWith('/test/'))).toBe(false)
  })

  it('holds every package main loads at run time, with what they depend on, and none of the renderer’s', () => {
    const mainCode = [join(root, 'out/main'), join(root, 'out/main/chunks')]
      .filter(existsSync)
      .flatMap((dir) =>
        readdirSync(dir)
          .filter((name) => name.endsWith('.js'))
          .map((name) => readFileSync(join(dir, name), 'utf8')),
      )
      .join('\n')
    const imported = new Set(
      // `from 'x'`, `require('x')`, and `createRequire(import.meta.url)('x')` (a CommonJS package loaded without Node
      // scanning it for named exports first).
      [
        ...mainCode.matchAll(
          /\bfrom\s*["']([^"'./][^"']*)["']|\brequire\(["']([^"'./][^"']*)["']\)|\bcreateRequire\(import\.meta\.url\)\(["']([^"'./][^"']*)["']\)/g,
        ),
      ].map((match) => match[1] ?? match[2] ?? match[3]!),
    )
    const packageName = /^(@[a-z0-9-~][\w.~-]*\/)?[a-z0-9-~][\w.~-]*(\/.*)?$/
    const packages = [...imported]
      .filter((name) => packageName.test(name) && !name.startsWith('node:') && name !== 'electron')
      .map((name) =>
        name
          .split('/')
          .slice(0, name.startsWith('@') ? 2 : 1)
          .join('/'),
      )
    expect(packages).toEqual(expect.arrayContaining(['libsql', 'papaparse']))
    // Resolved as Node will inside the archive: from the dependent's folder there, a nested
    // node_modules first, then each folder up (electron-builder lays the tree out its own way).
    const archive = join(unpacked, 'resources/app.asar')
    const inArchive = new Set(asarFiles)
    const locate = (name: string, from: string): string | null => {
      for (let dir = from; ; dir = dir.slice(0, dir.lastIndexOf('/'))) {
        if (inArchive.has(`${dir}/node_modules/${name}/package.json`)) return `${dir}/node_modules/${name}`
        if (dir === '') return null
      }
    }
    const found = new Set<string>()
    const missing: string[] = []
    const visit = (name: string, from: string) => {
      // Type declarations only: nothing loads them at run time.
      if (name.startsWith('@types/')) return
      const dir = locate(name, from)
      if (dir === null) return void missing.push(`${name} (from ${from || '/'})`)
      if (found.has(dir)) return
      found.add(dir)
      const manifest = JSON.parse(asar.extractFile(archive, `${dir.slice(1)}/package.json`).toString('utf8')) as {
        dependencies?: Record<string, string>
      }
      for (const dependency of Object.keys(manifest.dependencies ?? {})) visit(dependency, dir)
    }
    for (const name of packages) visit(name, '')
    expect(missing, 'packages main needs that the packaged app would not find').toEqual([])
    for (const name of ['react', 'react-dom', 'monaco-editor', '@tanstack/react-query', 'zustand'])
      expect(asarFiles).not.toContain(`/node_modules/${name}/package.json`)
  })

  it('keeps libsql’s native binary outside the archive, where it can be loaded', () => {
    const libsqlDir = join(unpacked, 'resources/app.asar.unpacked/node_modules/@libsql')
    const binaries = readdirSync(libsqlDir, { recursive: true })
      .map(String)
      .filter((name) => name.endsWith('.node'))
    expect(binaries).toEqual(expect.arrayContaining([expect.stringMatching(/^linux-x64-gnu[\\/]index\.node$/)]))
    expect(existsSync(join(unpacked, 'resources/app.asar.unpacked/node_modules/libsql/index.js'))).toBe(true)
  })
})
