import { availableParallelism } from 'node:os'
import { configDefaults, defineConfig } from 'vitest/config'

/**
 * The security checks (the IPC fuzz, the Electronegativity scan, the packaging run) keep a core
 * busy for seconds: they run in a step of their own (`npm run test:security`, vitest.security.config.ts),
 * after these, so no timing-sensitive test ever shares the machine with them.
 */
export const SECURITY_TESTS = ['test/unit/security/**/*.test.ts', 'test/unit/packaging/**/*.test.ts']

export default defineConfig({
  test: {
    include: ['test/unit/**/*.test.ts', 'test/unit/**/*.test.tsx'],
    exclude: [...configDefaults.exclude, ...SECURITY_TESTS],
    environment: 'node',
    testTimeout: 20_000,
    pool: 'forks',
    // Vitest takes one core less than the machine has: one file at a time on these 2 cores, while
    // most files wait on child processes and sockets. Two at a time cut the run from 6.5 to 5 minutes.
    maxWorkers: availableParallelism(),
    benchmark: { include: ['bench/**/*.bench.ts'] },
  },
})
