// The embed-console command built from source, for tests that run it as a process of its own
// (and kill it): the same entry bin/embed-console.js starts from the build.
import { runCli } from '../../../src-main/cli/index'

await runCli()
