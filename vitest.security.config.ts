import { defineConfig } from 'vitest/config'
import unit, { SECURITY_TESTS } from './vitest.config'

/**
 * `npm run test:security`: the IPC fuzz, the Electronegativity scan and the packaging run, one file
 * at a time (two at a time saved 2 s of 31: the packaging run is most of it).
 */
export default defineConfig({ test: { ...unit.test, include: SECURITY_TESTS, exclude: ['**/node_modules/**'], maxWorkers: 1 } })
