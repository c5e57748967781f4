// Counts and times every SQLite statement a process runs through libsql, and prints them by
// statement when it exits (to stderr): where a recorded bulk run's SQLite time goes.
// Usage: node --import ./bench/scripts/count-statements.mjs bin/embed-console.js groups apply FILE --profile NAME …
// The hook itself costs about a microsecond a statement.
import { createRequire } from 'node:module'

const Libsql = createRequire(import.meta.url)('libsql')
const counts = new Map()
const timed = (label, work) => {
  const started = performance.now()
  try {
    return work()
  } finally {
    const entry = counts.get(label) ?? { times: 0, ms: 0 }
    entry.times += 1
    entry.ms += performance.now() - started
    counts.set(label, entry)
  }
}
const prepare = Libsql.prototype.prepare
Libsql.prototype.prepare = function (sql) {
  const statement = prepare.call(this, sql)
  const label = sql.replace(/\s+/g, ' ').slice(0, 100)
  for (const method of ['run', 'get', 'all']) {
    const original = statement[method].bind(statement)
    statement[method] = (...params) => timed(`${method} ${label}`, () => original(...params))
  }
  return statement
}
const exec = Libsql.prototype.exec
Libsql.prototype.exec = function (sql) {
  return timed(`exec ${sql.slice(0, 60)}`, () => exec.call(this, sql))
}
process.on('exit', () => {
  const rows = [...counts].sort((a, b) => b[1].ms - a[1].ms)
  const total = rows.reduce((sum, [, { times, ms }]) => ({ times: sum.times + times, ms: sum.ms + ms }), { times: 0, ms: 0 })
  process.stderr.write(`${total.times} statements, ${total.ms.toFixed(0)} ms\n`)
  for (const [label, { times, ms }] of rows.slice(0, 30))
    process.stderr.write(`${String(times).padStart(8)} ${ms.toFixed(0).padStart(6)} ms  ${label}\n`)
})
