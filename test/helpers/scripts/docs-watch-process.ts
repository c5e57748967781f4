// The app's services in a process of their own, stopped as `embed-console web` is (SIGTERM runs
// its shutdown): opens a docs.json, indexes and watches its folder through the router as a
// caller may (`watch` given as argv[4], JSON, or left out), says "watching" with the index's
// notices, and then waits to be stopped. argv: data folder, docs.json, worker file or "inline".
import { serveUntilStopped } from '../../../src-main/cli/usage'
import { appThroughRouter } from '../app-calls'

const [dataDir, docsJson, worker, watch] = process.argv.slice(2) as [string, string, string, string | undefined]
const { services, call } = await appThroughRouter(dataDir, worker)
const { documentId } = (await call('site.open', { path: docsJson })) as { documentId: string }
// What holds `embed-console web` open is its HTTP server; here a timer stands in for it. The
// watcher alone holds nothing (its handles are not persistent), so without it the process could
// end on its own just as the test's signal arrives, and die of the signal instead of its handler.
const serving = setInterval(() => {}, 60_000)
const stopped = serveUntilStopped(async () => {
  clearInterval(serving)
  await services.close()
})
const { index } = (await call('site.docsIndex', watch === undefined ? { documentId } : { documentId, watch: JSON.parse(watch) })) as {
  index: { notices?: string[] }
}
process.stdout.write(`${JSON.stringify({ watching: true, notices: index.notices ?? [] })}\n`)
process.exitCode = await stopped
