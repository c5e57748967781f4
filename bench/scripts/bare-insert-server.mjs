// The floor of the sandbox's load bench (bench/sandbox-load.bench.ts): what any node:http server
// that stores a call in SQLite pays, and nothing more. It reads the body, JSON.parses it, runs one
// INSERT (a statement prepared once, the database in WAL like the sandbox's) and answers a small
// JSON; no token, no checks. Usage: node bare-insert-server.mjs DATABASE_FILE, with an IPC
// channel: it sends its address, answers any message with its CPU time, and exits when the
// channel closes.
import { createServer } from 'node:http'
import Database from 'libsql'

const [dataFile] = process.argv.slice(2)
const db = new Database(dataFile)
db.pragma('journal_mode = WAL')
db.pragma('synchronous = NORMAL')
db.exec('CREATE TABLE IF NOT EXISTS calls (id INTEGER PRIMARY KEY, user_group_id TEXT NOT NULL)')
const insert = db.prepare('INSERT INTO calls (user_group_id) VALUES (?)')

const server = createServer((req, res) => {
  const chunks = []
  req.on('data', (chunk) => chunks.push(chunk))
  req.on('end', () => {
    const { user_group_id: userGroupId } = JSON.parse(Buffer.concat(chunks).toString('utf8'))
    const { lastInsertRowid } = insert.run(userGroupId)
    const text = JSON.stringify({ success: 1, id: Number(lastInsertRowid) })
    res.writeHead(200, { 'Content-Type': 'application/json; charset=utf-8', 'Content-Length': Buffer.byteLength(text) })
    res.end(text)
  })
})
server.listen(0, '127.0.0.1', () => process.send({ baseUrl: `http://127.0.0.1:${server.address().port}` }))
process.on('message', () => process.send({ cpu: process.cpuUsage() }))
process.on('disconnect', () => {
  server.close()
  server.closeAllConnections()
  db.close()
  process.exit(0)
})
