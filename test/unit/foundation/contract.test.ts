import { describe, expect, it } from 'vitest'
import { z } from 'zod'
import { contract, isCallName } from '../../../src-shared/ipc/contract'
import { events } from '../../../src-shared/ipc/events'
import { resultSchema } from '../../../src-shared/ipc/result'

describe('contract', () => {
  it('names every call as feature.action with a summary and zod schemas', () => {
    const names = Object.keys(contract)
    expect(names.length).toBeGreaterThan(0)
    for (const [name, spec] of Object.entries(contract)) {
      expect(name).toMatch(/^[a-z][a-zA-Z]*\.[a-z][a-zA-Z]*$/)
      expect(spec.summary.length).toBeGreaterThan(10)
      expect(spec.input).toBeInstanceOf(z.ZodType)
      expect(spec.output).toBeInstanceOf(z.ZodType)
    }
  })

  it('takes an object as every input, so the transports can always send JSON', () => {
    for (const spec of Object.values(contract)) {
      expect(spec.input.def.type).toBe('object')
    }
  })

  it('only recognises its own names', () => {
    expect(isCallName('app.info')).toBe(true)
    expect(isCallName('toString')).toBe(false)
    expect(isCallName('app.info ')).toBe(false)
  })

  it('describes results as ok/value or ok:false/error', () => {
    const schema = resultSchema(z.string())
    expect(schema.safeParse({ ok: true, value: 'x' }).success).toBe(true)
    expect(schema.safeParse({ ok: false, error: { code: 'internal', message: 'm' } }).success).toBe(true)
    expect(schema.safeParse({ ok: false, error: { code: 'made_up', message: 'm' } }).success).toBe(false)
    expect(schema.safeParse({ ok: true }).success).toBe(false)
  })

  it('gives every event a schema', () => {
    for (const schema of Object.values(events)) expect(schema).toBeInstanceOf(z.ZodType)
    const progress = {
      runId: 'r',
      state: 'running',
      total: 2,
      done: 1,
      failed: 0,
      unknown: 0,
      retried: 0,
      ratePerMinute: 60,
      etaSeconds: 1,
      waitingUntil: null,
      pausedReason: null,
    }
    expect(events['bulk.progress'].safeParse(progress).success).toBe(true)
    expect(events['bulk.progress'].safeParse({ ...progress, done: 1.5 }).success).toBe(false)
  })
})
