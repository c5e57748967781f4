// The sandbox alone in a process of its own, for the crash tests to kill -9.
import { startSandbox } from '../../../src-main/sandbox/sandbox-server'

const [dataFile] = process.argv.slice(2)
const sandbox = await startSandbox({ dataFile: dataFile! })
process.stdout.write(`${JSON.stringify({ baseUrl: sandbox.baseUrl, token: sandbox.tokens.Customer })}\n`)
