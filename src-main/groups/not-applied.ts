import type { GetOrCreateRequest, Mapping, UserGroup } from '../../src-shared/user-api/schemas'

/** A field get-or-create can be given but applies only when it creates the group. */
export type SentField = 'name' | 'mapping' | 'properties'

const sameJson = (a: unknown, b: unknown) => JSON.stringify(a) === JSON.stringify(b)

const listOf = (fields: string[]) => (fields.length === 1 ? fields[0]! : `${fields.slice(0, -1).join(', ')} and ${fields.at(-1)}`)

/**
 * What a get-or-create of an existing group was given but did not apply: the API returns such a
 * group unchanged. The answer shows the name and properties as they are; the mapping is never
 * returned, so it counts as not applied unless it is the one already known (`knownMapping`).
 */
export function fieldsNotApplied(request: GetOrCreateRequest, group: UserGroup, knownMapping: Mapping | undefined): SentField[] {
  const fields: SentField[] = []
  if (request.name !== undefined && request.name !== group.name) fields.push('name')
  if (request.mapping !== undefined && !sameJson(request.mapping, knownMapping)) fields.push('mapping')
  if (request.properties !== undefined && !sameJson(request.properties, group.properties ?? undefined)) fields.push('properties')
  return fields
}

/** The sentence for the operator (the screen and the CLI say the same). */
export const notAppliedWarning = (groupId: string, fields: SentField[]) =>
  `“${groupId}” already existed, so get-or-create returned it unchanged: the ${listOf(fields)} you gave ${fields.length === 1 ? 'was' : 'were'} not applied. Use Update to change ${fields.length === 1 ? 'it' : 'them'}.`
