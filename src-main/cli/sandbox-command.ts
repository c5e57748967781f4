import { join } from 'node:path'
import { parseArgs } from 'node:util'
import { messageOf } from '../../src-shared/ipc/error-message'
import { AppErrorException } from '../../src-shared/ipc/result'
import { defaultDataDir } from '../data-dir'
import { type Sandbox, SANDBOX_DATA_FILE, startSandbox } from '../sandbox/sandbox-server'
import { type CliIo, type Command, serveUntilStopped, UsageError } from './usage'
import { parsePort } from './web-command'

/** Runs the sandbox alone until SIGINT or SIGTERM; resolves with the exit code. */
async function runSandbox(argv: string[], io: CliIo): Promise<number> {
  const { values } = parseArgs({
    args: argv,
    options: {
      port: { type: 'string' },
      data: { type: 'string' },
      'customer-token': { type: 'string' },
      'testing-token': { type: 'string' },
    },
    strict: true,
  })
  const port = parsePort(values.port)
  let sandbox: Sandbox
  try {
    sandbox = await startSandbox({
      port,
      dataFile: values.data ?? join(defaultDataDir(io.env), SANDBOX_DATA_FILE),
      customerToken: values['customer-token'],
      testingToken: values['testing-token'],
      log: (line) => io.stderr(line),
    })
  } catch (error) {
    // Bad tokens are a usage mistake; an unwritable data file or a busy port is a failure to run.
    if (error instanceof AppErrorException && error.code === 'invalid_input') throw new UsageError(error.message)
    io.stderr(`The sandbox could not start: ${messageOf(error)}`)
    return 1
  }
  // Printing the tokens is the point of this command: scripts read them from here.
  io.stdout(`Sandbox for /api/user running at ${sandbox.baseUrl}`)
  io.stdout(`Customer API token: ${sandbox.tokens.Customer}`)
  io.stdout(`Testing API token:  ${sandbox.tokens.Testing}`)

  return serveUntilStopped(() => sandbox.close())
}

export const sandboxCommand: Command = {
  name: 'sandbox',
  usage: 'embed-console sandbox [--port N] [--data FILE] [--customer-token T] [--testing-token T]',
  examples: ['embed-console sandbox --port 8765', 'embed-console sandbox --port 0 --data /tmp/sandbox.db --customer-token my-ci-token'],
  exitCodes: [
    [0, 'stopped with Ctrl+C (or SIGTERM)'],
    [1, 'could not start: the data file cannot be written, the port is taken'],
    [2, 'bad usage, or a token that is not visible ASCII'],
  ],
  run: runSandbox,
}
