import type { z } from 'zod'
import { jsonTextTooDeep, tooDeepMessage } from '../../../src-shared/json/depth'

export type JsonFieldResult<T> = { state: 'empty' } | { state: 'valid'; value: T } | { state: 'invalid'; reason: string }

/**
 * Reads a group form's JSON field (mapping, properties) through a zod schema: empty means "not
 * sent", otherwise the value or one sentence saying what is wrong and where, used to disable a
 * submit with its reason. Text nested deeper than main accepts is said so before it is parsed.
 */
export function readJsonField<S extends z.ZodType>(text: string, schema: S, label: string): JsonFieldResult<z.output<S>> {
  if (!text.trim()) return { state: 'empty' }
  if (jsonTextTooDeep(text)) return { state: 'invalid', reason: tooDeepMessage(`The ${label} field`) }
  let parsed: unknown
  try {
    parsed = JSON.parse(text)
  } catch (error) {
    return { state: 'invalid', reason: `${label} is not valid JSON (${(error as Error).message}).` }
  }
  const checked = schema.safeParse(parsed)
  if (checked.success) return { state: 'valid', value: checked.data }
  const issue = checked.error.issues[0]!
  const where = issue.path.length ? `${label}.${issue.path.map(String).join('.')}` : label
  return { state: 'invalid', reason: `${where}: ${issue.message}.` }
}
