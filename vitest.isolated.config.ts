import { defineConfig } from 'vitest/config'
import base from './vitest.config'
import { ISOLATED_TESTS } from './vitest.unit.config'

/** `npm run test:unit`, second pass: the files that need a module graph of their own, each in one. */
export default defineConfig({ test: { ...base.test, include: ISOLATED_TESTS, isolate: true } })
