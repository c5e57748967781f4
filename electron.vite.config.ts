import { readFile, writeFile } from 'node:fs/promises'
import { join, resolve } from 'node:path'
import { promisify } from 'node:util'
import { brotliCompress, constants, gzip } from 'node:zlib'
import react from '@vitejs/plugin-react'
import { defineConfig } from 'electron-vite'
import { build, type Plugin } from 'vite'

/** Files browser mode serves compressed (src-main/static-files.ts reads the copies). */
const COMPRESSIBLE = /\.(js|mjs|css|html|svg|json|ttf|map)$/
const MIN_BYTES = 1024
/** Brotli's best setting takes 8 s on Monaco's 4 MB for 9% less than setting 9 (0.3 s): big files get 9. */
const BIG_BYTES = 1024 * 1024

/**
 * Writes a brotli (`.br`) and a gzip (`.gz`) copy beside every text asset of the renderer, once at
 * build time, so browser mode sends Monaco's 4 MB as about 1 MB without compressing per request.
 * node:zlib does the work; a plugin package would add a dependency for these dozen lines.
 */
function precompress(): Plugin {
  const br = promisify(brotliCompress)
  const gz = promisify(gzip)
  return {
    name: 'embed-console:precompress',
    apply: 'build',
    async writeBundle(options, bundle) {
      const dir = options.dir!
      const names = Object.keys(bundle).filter((name) => COMPRESSIBLE.test(name))
      await Promise.all(
        names.map(async (name) => {
          const body = await readFile(join(dir, name))
          if (body.length < MIN_BYTES) return
          const params = {
            [constants.BROTLI_PARAM_QUALITY]: body.length > BIG_BYTES ? 9 : 11,
            [constants.BROTLI_PARAM_SIZE_HINT]: body.length,
          }
          await writeFile(join(dir, `${name}.br`), await br(body, { params }))
          await writeFile(join(dir, `${name}.gz`), await gz(body, { level: 9 }))
        }),
      )
    },
  }
}

/**
 * The site preview's frame (src-renderer/features/site-editor/preview/frame) is a sandboxed iframe
 * with no origin of its own, which may not load module chunks shared with the app: it gets one
 * classic script and one stylesheet of its own, built beside the renderer (preview-frame.js and
 * .css, with their compressed copies; its page is public/preview-frame.html).
 */
function previewFrame(): Plugin {
  return {
    name: 'embed-console:preview-frame',
    apply: 'build',
    async writeBundle(options) {
      await build({
        configFile: false,
        root: resolve('src-renderer'),
        logLevel: 'warn',
        plugins: [react(), precompress()],
        define: { 'process.env.NODE_ENV': JSON.stringify('production') },
        build: {
          outDir: options.dir!,
          emptyOutDir: false,
          minify: true,
          copyPublicDir: false,
          lib: {
            entry: resolve('src-renderer/features/site-editor/preview/frame/main.tsx'),
            formats: ['iife'],
            name: 'previewFrame',
            fileName: () => 'preview-frame.js',
            cssFileName: 'preview-frame',
          },
        },
      })
    },
  }
}

// One build for the three processes. The CLI (browser mode, sandbox, validate, groups) is a
// second entry of the main build: it shares main's code and never imports Electron.
export default defineConfig({
  main: {
    build: {
      outDir: 'out/main',
      // zod is bundled: as a package it is a hundred small ES modules, whose resolving and
      // loading cost every CLI call and every start more than the code itself. jsonc-parser too:
      // its CommonJS build is six files, and an ES module importing CommonJS has Node scan each
      // one for its exports first (3 to 5 ms of `embed-console convert`).
      externalizeDeps: { exclude: ['zod', 'jsonc-parser'] },
      rollupOptions: {
        input: {
          index: resolve('src-main/index.ts'),
          cli: resolve('src-main/cli/index.ts'),
          // The docs-folder index runs on a worker thread (site-files/docs-folder-service.ts).
          'docs-index-worker': resolve('src-main/site-files/docs-index-worker.ts'),
        },
        // The CLI loads each command as a chunk of its own; chunks sit beside the entries (not in
        // chunks/), so a path relative to any main file (src-main/cli/paths.ts) finds out/renderer.
        output: { chunkFileNames: '[name]-[hash].js' },
      },
    },
  },
  preload: {
    build: {
      outDir: 'out/preload',
      // A sandboxed window can only load a CommonJS preload (docs/platform-notes.md).
      rollupOptions: {
        input: { preload: resolve('src-main/preload.ts') },
        output: { format: 'cjs', entryFileNames: '[name].cjs' },
      },
    },
  },
  renderer: {
    root: 'src-renderer',
    plugins: [react(), precompress(), previewFrame()],
    build: {
      outDir: 'out/renderer',
      minify: true,
      rollupOptions: { input: { index: resolve('src-renderer/index.html') } },
    },
  },
})
