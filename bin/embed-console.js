#!/usr/bin/env node
// The CLI is built with the app (`npm install` runs the build); this file only finds it.

const cli = new URL('../out/main/cli.js', import.meta.url)
// node:fs through getBuiltinModule: an ES module's import of it would load its streams too.
if (!process.getBuiltinModule('node:fs').existsSync(cli)) {
  process.stderr.write('Embed Console is not built yet: run `npm run build` in its folder first.\n')
  process.exit(2)
}
const { runCli } = await import(cli.href)
await runCli()
