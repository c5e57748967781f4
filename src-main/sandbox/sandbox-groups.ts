import type { EnvironmentTag, GetOrCreateRequest, UpdateRequest } from '../../src-shared/user-api/schemas'
import type { Database, SqlValue } from '../storage/database'
import { JsonText } from './sandbox-requests'

interface GroupRecord {
  team_id: number
  environment: EnvironmentTag
  provided_id: string
  name: string
  token: string
  properties: string | null
}

/**
 * The text a request's mapping or properties were sent in (see JsonText), or undefined when it
 * has none: stored so, and the properties answered so. Asked only when a group is written, as
 * finding it takes a parse of the body of its own.
 */
export type SentText = (member: 'mapping' | 'properties') => string | undefined

const noSentText: SentText = () => undefined

/**
 * The group as the API returns it, written straight as JSON text: the fields of
 * docs/user-group-api.md section 2 in its order (no mapping: responses list none), and the
 * properties as the text they were stored in, sent without being parsed again.
 */
const asResponse = (row: GroupRecord): JsonText =>
  new JsonText(
    `{"team_id":${JSON.stringify(row.team_id)},"token":${JSON.stringify(row.token)},"name":${JSON.stringify(row.name)},` +
      `"provided_id":${JSON.stringify(row.provided_id)},"properties":${row.properties ?? 'null'},` +
      `"api_environment_tag":${JSON.stringify(row.environment)}}`,
  )

const COLUMNS = 'team_id, environment, provided_id, name, token, properties'

/**
 * The rules of /api/user over the sandbox's database: ids unique per environment, a group token
 * looked up only within the caller's environment, rotation replacing the token. Each operation
 * is one indexed statement (or a read and one), atomic on its own: two processes serving the
 * same database cannot create one id twice or rotate one token twice.
 */
export class SandboxGroups {
  constructor(
    private readonly db: Database,
    private readonly newToken: () => string,
  ) {}

  private byId(environment: EnvironmentTag, userGroupId: string): GroupRecord | undefined {
    return this.db.get<GroupRecord>(`SELECT ${COLUMNS} FROM groups WHERE environment = ? AND provided_id = ?`, environment, userGroupId)
  }

  getOrCreate(
    environment: EnvironmentTag,
    request: GetOrCreateRequest,
    sentText: SentText = noSentText,
  ): { created: boolean; group: JsonText } {
    const existing = this.byId(environment, request.user_group_id)
    if (existing) return { created: false, group: asResponse(existing) }
    // docs/user-group-api.md section 2 types name as a string; a group created without one gets the empty string.
    const inserted = this.db.get<GroupRecord>(
      `INSERT INTO groups (environment, provided_id, name, token, mapping, properties) VALUES (?, ?, ?, ?, ?, ?)
       ON CONFLICT (environment, provided_id) DO NOTHING RETURNING ${COLUMNS}`,
      environment,
      request.user_group_id,
      request.name ?? '',
      this.newToken(),
      sentText('mapping') ?? JSON.stringify(request.mapping ?? {}),
      request.properties === undefined ? null : (sentText('properties') ?? JSON.stringify(request.properties)),
    )
    if (inserted) return { created: true, group: asResponse(inserted) }
    // Another process created it between the read and the insert: theirs is the group.
    return { created: false, group: asResponse(this.byId(environment, request.user_group_id)!) }
  }

  /** Changes only the fields given; undefined when the group does not exist in this environment. */
  update(environment: EnvironmentTag, request: UpdateRequest, sentText: SentText = noSentText): JsonText | undefined {
    const sets: string[] = []
    const values: SqlValue[] = []
    const change = (column: string, value: SqlValue) => {
      sets.push(`${column} = ?`)
      values.push(value)
    }
    if (request.name !== undefined) change('name', request.name)
    if (request.mapping !== undefined) change('mapping', sentText('mapping') ?? JSON.stringify(request.mapping))
    if (request.properties !== undefined) change('properties', sentText('properties') ?? JSON.stringify(request.properties))
    if (sets.length === 0) {
      const found = this.byId(environment, request.user_group_id)
      return found ? asResponse(found) : undefined
    }
    const updated = this.db.get<GroupRecord>(
      `UPDATE groups SET ${sets.join(', ')} WHERE environment = ? AND provided_id = ? RETURNING ${COLUMNS}`,
      ...values,
      environment,
      request.user_group_id,
    )
    return updated ? asResponse(updated) : undefined
  }

  /** Replaces the token; undefined when no group of this environment holds `currentToken`. */
  rotateToken(environment: EnvironmentTag, currentToken: string): JsonText | undefined {
    const rotated = this.db.get<GroupRecord>(
      `UPDATE groups SET token = ? WHERE environment = ? AND token = ? RETURNING ${COLUMNS}`,
      this.newToken(),
      environment,
      currentToken,
    )
    return rotated ? asResponse(rotated) : undefined
  }
}
