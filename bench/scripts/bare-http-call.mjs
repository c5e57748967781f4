// The CLI's baseline: the same get-or-create with nothing but node:http (no validation, no
// redaction, no proxy or CA handling). Usage: node bare-http-call.mjs BASE_URL USER_GROUP_ID, the
// API token in EMBED_CONSOLE_TOKEN. Prints the answer.
import { request } from 'node:http'

const [baseUrl, groupId] = process.argv.slice(2)
const body = JSON.stringify({ user_group_id: groupId, name: 'Bench' })
const call = request(new URL('/api/user', baseUrl), {
  method: 'GET',
  headers: {
    Authorization: `Token ${process.env.EMBED_CONSOLE_TOKEN}`,
    'Content-Type': 'application/json',
    'Content-Length': Buffer.byteLength(body),
  },
})
call.on('response', (response) => {
  let text = ''
  response.setEncoding('utf8')
  response.on('data', (chunk) => (text += chunk))
  response.on('end', () => {
    process.stdout.write(`${text}\n`)
    process.exitCode = response.statusCode === 200 ? 0 : 1
  })
})
call.end(body)
