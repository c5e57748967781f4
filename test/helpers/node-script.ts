import { mkdir, mkdtemp } from 'node:fs/promises'
import { basename, join, resolve } from 'node:path'
import { build } from 'vite'

const built = new Map<string, Promise<string>>()

/**
 * Bundles a TypeScript script (and the app code it imports) into one ES module Node can run in a
 * child process, the way the app's own build does: for tests that need a second process, or one
 * to kill -9, running the real modules. Packages stay external (libsql loads its native binary).
 */
export function nodeScript(entry: string): Promise<string> {
  let script = built.get(entry)
  if (!script) {
    script = (async () => {
      // Inside the project, so the bundle resolves its packages from node_modules.
      const cache = resolve('node_modules/.cache/embed-console-test-scripts')
      await mkdir(cache, { recursive: true })
      const outDir = await mkdtemp(join(cache, 'script-'))
      await build({
        configFile: false,
        logLevel: 'silent',
        build: {
          ssr: entry,
          outDir,
          emptyOutDir: false,
          minify: false,
          rollupOptions: { output: { format: 'es', entryFileNames: `${basename(entry, '.ts')}.mjs` } },
        },
      })
      return join(outDir, `${basename(entry, '.ts')}.mjs`)
    })()
    built.set(entry, script)
  }
  return script
}
