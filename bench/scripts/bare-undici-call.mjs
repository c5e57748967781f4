// The same get-or-create with undici, the HTTP client the app uses, imported whole as a script
// would. Run with --liftoff-only, as the CLI runs (see runCli). Usage as bare-http-call.mjs.
import { request } from 'undici'

const [baseUrl, groupId] = process.argv.slice(2)
const response = await request(new URL('/api/user', baseUrl), {
  method: 'GET',
  body: JSON.stringify({ user_group_id: groupId, name: 'Bench' }),
  headers: { Authorization: `Token ${process.env.EMBED_CONSOLE_TOKEN}`, 'Content-Type': 'application/json' },
})
process.stdout.write(`${await response.body.text()}\n`)
process.exitCode = response.statusCode === 200 ? 0 : 1
