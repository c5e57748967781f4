import { defineConfig } from 'vitest/config'

export default defineConfig({
  test: {
    include: ['test/unit/**/*.test.ts', 'test/unit/**/*.test.tsx'],
    environment: 'node',
    testTimeout: 20_000,
    pool: 'forks',
    benchmark: { include: ['bench/**/*.bench.ts'] },
  },
})
