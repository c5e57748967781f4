// One hostile docs folder in a process of its own, through the router as the app asks for it:
// `link` opens the docs.json of a folder holding a link to / and indexes and watches it (as a
// caller of the contract may: no `watch`, then folders through the link), then lets it watch for
// 10 s; `refs` opens a docs.json whose $refs fan out, reads its $ref files and exports it (main
// checks it, $refs resolved, before writing). Prints one JSON line: how long until the answer,
// the sentences it carried, and the process's peak RSS (VmHWM) at the end.
// argv: mode (link | refs), data folder, docs.json, worker file.
import { readFileSync } from 'node:fs'
import { dirname, join } from 'node:path'
import { appThroughRouter } from '../../test/helpers/app-calls'

const [mode, dataDir, docsJson, worker] = process.argv.slice(2) as ['link' | 'refs', string, string, string]
const { services, call: callOrThrow } = await appThroughRouter(dataDir, worker)
const call = (name: string, input: unknown) =>
  callOrThrow(name, input).catch((error: Error): Record<string, unknown> => ({ error: error.message }))
const peakMb = () => Number(/VmHWM:\s+(\d+)/.exec(readFileSync('/proc/self/status', 'utf8'))?.[1] ?? 0) / 1024

const started = performance.now()
const { documentId, text } = (await call('site.open', { path: docsJson })) as { documentId: string; text: string }
const sentences: string[] = []
if (mode === 'link') {
  const first = (await call('site.docsIndex', { documentId })) as { index: { notices?: string[] } }
  const through = (await call('site.docsIndex', { documentId, watch: ['', 'everything', 'everything/usr', 'everything/usr/lib'] })) as {
    index: { notices?: string[] }
  }
  sentences.push(...(first.index.notices ?? []), ...(through.index.notices ?? []))
} else {
  const { files } = (await call('site.readRefs', { documentId, refs: ['a.json', 'b.json'] })) as { files: unknown[] }
  const exported = await call('site.export', {
    documentId,
    text,
    byteOrderMark: false,
    rules: 'spec',
    target: { kind: 'path', path: join(dirname(docsJson), 'exported.json') },
  })
  sentences.push(`${files.length} $ref files read; export: ${String(exported.error ?? 'written')}`)
}
const answerMs = performance.now() - started
// The watcher at work, as the issue measured it (1.9 GB after 10 s with a link to /).
if (mode === 'link') await new Promise((next) => setTimeout(next, 10_000))
process.stdout.write(`${JSON.stringify({ answerMs, sentences, peakMb: peakMb() })}\n`)
await services.close()
process.exit(0)
