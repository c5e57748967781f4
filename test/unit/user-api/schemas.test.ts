import { describe, expect, it } from 'vitest'
import { z } from 'zod'
import {
  ApiFailureBodySchema,
  GetOrCreateRequestSchema,
  GetOrCreateResponseSchema,
  MappingSchema,
  PropertiesSchema,
  RotateTokenRequestSchema,
  UpdateRequestSchema,
  UserGroupSchema,
} from '../../../src-shared/user-api/schemas'

const group = { team_id: 3, token: 'abc', name: 'Acme', provided_id: 'acme' }

describe('the JSON Schema the UI derives for Monaco', () => {
  it('describes the mapping as an object of strings, with the spec’s meaning', () => {
    expect(z.toJSONSchema(MappingSchema)).toMatchObject({
      type: 'object',
      additionalProperties: { type: 'string' },
      title: 'Mapping',
      description: expect.stringContaining('schema id'),
    })
  })

  it('describes the properties as an object of any JSON', () => {
    const schema = z.toJSONSchema(PropertiesSchema) as {
      type: string
      title: string
      additionalProperties: { $ref: string }
      $defs: object
    }
    expect(schema).toMatchObject({ type: 'object', title: 'Properties', description: expect.stringContaining('SQL editor') })
    expect(schema.additionalProperties.$ref).toMatch(/^#\/\$defs\//)
  })

  it('marks user_group_id as the only required field, and no other key allowed', () => {
    expect(z.toJSONSchema(GetOrCreateRequestSchema)).toMatchObject({ required: ['user_group_id'], additionalProperties: false })
    expect(z.toJSONSchema(UpdateRequestSchema)).toMatchObject({ required: ['user_group_id'], additionalProperties: false })
  })
})

describe('request schemas', () => {
  it('accept the spec’s fields and refuse a null where an object belongs', () => {
    expect(
      GetOrCreateRequestSchema.safeParse({
        user_group_id: 'a',
        name: 'n',
        mapping: { s: 'd' },
        properties: { nested: { list: [1, null] } },
      }).success,
    ).toBe(true)
    expect(UpdateRequestSchema.safeParse({ user_group_id: 'a', properties: null }).success).toBe(false)
  })

  it('refuse a current_token that is missing or empty', () => {
    expect(RotateTokenRequestSchema.safeParse({}).success).toBe(false)
    expect(RotateTokenRequestSchema.safeParse({ current_token: '' }).success).toBe(false)
    expect(RotateTokenRequestSchema.safeParse({ current_token: 't' }).success).toBe(true)
  })
})

describe('response schemas', () => {
  it('keep fields the spec does not list', () => {
    const parsed = GetOrCreateResponseSchema.parse({ success: 1, new_user_group: true, trace: 'x', user_group: { ...group, extra: [1] } })
    expect(parsed).toMatchObject({ trace: 'x', user_group: { extra: [1] } })
  })

  it('accept properties and the environment tag as absent, null or present', () => {
    expect(UserGroupSchema.safeParse(group).success).toBe(true)
    expect(UserGroupSchema.safeParse({ ...group, properties: null, api_environment_tag: null }).success).toBe(true)
    expect(UserGroupSchema.safeParse({ ...group, properties: { a: 1 }, api_environment_tag: 'Testing' }).success).toBe(true)
  })

  it('refuse an environment tag outside Customer and Testing, and a success other than 1', () => {
    expect(UserGroupSchema.safeParse({ ...group, api_environment_tag: 'Staging' }).success).toBe(false)
    expect(GetOrCreateResponseSchema.safeParse({ success: 0, new_user_group: true, user_group: group }).success).toBe(false)
  })

  it('read a failure body with error, message, or neither', () => {
    expect(ApiFailureBodySchema.parse({ success: 0, error: 'e', code: 9 })).toEqual({ success: 0, error: 'e', code: 9 })
    expect(ApiFailureBodySchema.safeParse({ success: 0 }).success).toBe(true)
    expect(ApiFailureBodySchema.safeParse({ success: 1 }).success).toBe(false)
  })
})
