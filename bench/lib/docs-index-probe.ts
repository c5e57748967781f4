// One docs-folder index in a process of its own, through the router as the app asks for it
// (`site.open`, then `site.docsIndex`), while another call is made every 10 ms: prints those
// calls' latencies, the index's time and the process's peak RSS (VmHWM) as one JSON line.
// argv: root, data folder, worker file or "inline" (main's own thread, the baseline).
import { readFileSync } from 'node:fs'
import { join } from 'node:path'
import { appThroughRouter } from '../../test/helpers/app-calls'

const [root, dataDir, worker] = process.argv.slice(2) as [string, string, string]
const { services, call } = await appThroughRouter(dataDir, worker)
const { documentId } = (await call('site.open', { path: join(root, 'mint.json') })) as { documentId: string }

const latencies: number[] = []
let indexing = true
// Each call is due 10 ms after the last answer: its latency counts from when it was due, so time
// main's thread spent elsewhere (indexing, parsing the index's answer) counts against it.
const caller = (async () => {
  while (indexing) {
    const due = performance.now() + 10
    await new Promise((next) => setTimeout(next, 10))
    await call('profiles.list', {})
    latencies.push(performance.now() - due)
  }
})()
const started = performance.now()
const { index } = (await call('site.docsIndex', { documentId })) as { index: { pages: unknown[]; truncated: boolean } }
// What the transport does with the answer before it leaves main.
JSON.stringify(index)
const indexMs = performance.now() - started
indexing = false
await caller
const peakKb = Number(/VmHWM:\s+(\d+)/.exec(readFileSync('/proc/self/status', 'utf8'))?.[1] ?? 0)
process.stdout.write(
  `${JSON.stringify({ indexMs, latencies, peakMb: peakKb / 1024, pages: index.pages.length, truncated: index.truncated })}\n`,
)
await services.close()
process.exit(0)
