// Preloaded with `node --import` into a command the benchmarks run: prints the process's peak
// RSS (VmHWM, in MB) on stderr as it exits, as the last line, for the bench to read.
import { readFileSync } from 'node:fs'

process.on('exit', () => {
  const kb = Number(/VmHWM:\s+(\d+)/.exec(readFileSync('/proc/self/status', 'utf8'))?.[1] ?? 0)
  process.stderr.write(`peak-rss-mb ${(kb / 1024).toFixed(1)}\n`)
})
