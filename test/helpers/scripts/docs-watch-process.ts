// The app's services in a process of their own, stopped as `embed-console web` is (SIGTERM runs
// its shutdown): opens a docs.json, indexes and watches its folder through the router as a
// caller may (`watch` given as argv[4], JSON, or left out), says "watching" with the index's
// notices, and then waits to be stopped. argv: data folder, docs.json, worker file or "inline".
import { serveUntilStopped } from '../../../src-main/cli/usage'
import { appThroughRouter } from '../app-calls'

const [dataDir, docsJson, worker, watch] = process.argv.slice(2) as [string, string, string, string | undefined]
const { services, call } = await appThroughRouter(dataDir, worker)
const { documentId } = (await call('site.open', { path: docsJson })) as { documentId: string }
const stopped = serveUntilStopped(() => services.close())
const { index } = (await call('site.docsIndex', watch === undefined ? { documentId } : { documentId, watch: JSON.parse(watch) })) as {
  index: { notices?: string[] }
}
process.stdout.write(`${JSON.stringify({ watching: true, notices: index.notices ?? [] })}\n`)
process.exitCode = await stopped
