import { describe, expect, it } from 'vitest'
import { z } from 'zod'
import { readJsonField } from '../../../src-renderer/features/groups/json-field'

const Mapping = z.record(z.string(), z.unknown())

describe('a group form’s JSON field', () => {
  it('is empty, a value, or one sentence saying what is wrong and where', () => {
    expect(readJsonField('  ', Mapping, 'mapping')).toEqual({ state: 'empty' })
    expect(readJsonField('{"plan": "gold"}', Mapping, 'mapping')).toEqual({ state: 'valid', value: { plan: 'gold' } })
    expect(readJsonField('{"plan": ', Mapping, 'mapping')).toMatchObject({
      state: 'invalid',
      reason: expect.stringMatching(/^mapping is not valid JSON/),
    })
    expect(readJsonField('[1]', Mapping, 'mapping')).toMatchObject({ state: 'invalid', reason: expect.stringMatching(/^mapping: /) })
  })

  it('says text nested deeper than main accepts is so before parsing it, as main would refuse it', () => {
    const deep = `${'{"a":'.repeat(65)}1${'}'.repeat(65)}`
    expect(readJsonField(deep, Mapping, 'mapping')).toEqual({
      state: 'invalid',
      reason: 'The mapping field is nested more than 64 levels deep, which Embed Console does not accept.',
    })
    const deepest = `${'['.repeat(100_000)}${']'.repeat(100_000)}`
    expect(readJsonField(`{"a": ${deepest}}`, Mapping, 'properties')).toMatchObject({
      state: 'invalid',
      reason: expect.stringMatching(/^The properties field is nested/),
    })
    const within = `${'{"a":'.repeat(63)}1${'}'.repeat(63)}`
    expect(readJsonField(within, Mapping, 'mapping')).toMatchObject({ state: 'valid' })
  })
})
