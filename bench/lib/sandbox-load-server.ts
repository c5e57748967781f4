// The sandbox alone in a process of its own, for the load bench (bench/sandbox-load.bench.ts):
// started with an IPC channel, it answers { cpu } with its CPU time so far, and closes and exits
// when the channel does (so a profile asked for with --cpu-prof is written).
import { startSandbox } from '../../src-main/sandbox/sandbox-server'

const [dataFile] = process.argv.slice(2)
const sandbox = await startSandbox({ dataFile: dataFile! })
process.on('message', () => process.send!({ cpu: process.cpuUsage() }))
process.on('disconnect', () => void sandbox.close().then(() => process.exit(0)))
process.send!({ baseUrl: sandbox.baseUrl, token: sandbox.tokens.Customer })
