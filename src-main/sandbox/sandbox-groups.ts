import { z } from 'zod'
import {
  EnvironmentTagSchema,
  MappingSchema,
  PropertiesSchema,
  type EnvironmentTag,
  type GetOrCreateRequest,
  type UpdateRequest,
  type UserGroup,
} from '../../src-shared/user-api/schemas'

const StoredGroupSchema = z.object({
  team_id: z.number().int().positive(),
  token: z.string(),
  name: z.string(),
  provided_id: z.string(),
  mapping: MappingSchema,
  properties: PropertiesSchema.nullable(),
  api_environment_tag: EnvironmentTagSchema,
})
type StoredGroup = z.infer<typeof StoredGroupSchema>

/** What the sandbox keeps on disk. API tokens are kept only when the sandbox made them up. */
export const SandboxDataSchema = z.object({
  format: z.literal('embed-console-sandbox'),
  version: z.literal(1),
  apiTokens: z.object({ Customer: z.string().optional(), Testing: z.string().optional() }),
  nextTeamId: z.number().int().positive(),
  groups: z.array(StoredGroupSchema),
})
export type SandboxData = z.infer<typeof SandboxDataSchema>

export const emptySandboxData = (): SandboxData => ({ format: 'embed-console-sandbox', version: 1, apiTokens: {}, nextTeamId: 1, groups: [] })

/** The group as the API returns it: the spec lists no mapping in responses. */
const asResponse = ({ mapping: _mapping, ...group }: StoredGroup): UserGroup => group

/**
 * The rules of /api/user over the sandbox's data, with no I/O: ids unique per environment, a
 * group token looked up only within the caller's environment, rotation replacing the token.
 * Methods change `data` in place; the server saves after any call that found or made a group,
 * except a get-or-create that found one (nothing changed).
 */
export class SandboxGroups {
  constructor(
    private readonly data: SandboxData,
    private readonly newToken: () => string,
  ) {}

  private byId(environment: EnvironmentTag, userGroupId: string): StoredGroup | undefined {
    return this.data.groups.find((group) => group.api_environment_tag === environment && group.provided_id === userGroupId)
  }

  getOrCreate(environment: EnvironmentTag, request: GetOrCreateRequest): { created: boolean; group: UserGroup } {
    const existing = this.byId(environment, request.user_group_id)
    if (existing) return { created: false, group: asResponse(existing) }
    const group: StoredGroup = {
      team_id: this.data.nextTeamId++,
      token: this.newToken(),
      // The spec types name as a string; a group created without one gets the empty string.
      name: request.name ?? '',
      provided_id: request.user_group_id,
      mapping: request.mapping ?? {},
      properties: request.properties ?? null,
      api_environment_tag: environment,
    }
    this.data.groups.push(group)
    return { created: true, group: asResponse(group) }
  }

  /** Changes only the fields given; undefined when the group does not exist in this environment. */
  update(environment: EnvironmentTag, request: UpdateRequest): UserGroup | undefined {
    const group = this.byId(environment, request.user_group_id)
    if (!group) return undefined
    if (request.name !== undefined) group.name = request.name
    if (request.mapping !== undefined) group.mapping = request.mapping
    if (request.properties !== undefined) group.properties = request.properties
    return asResponse(group)
  }

  /** Replaces the token; undefined when no group of this environment holds `currentToken`. */
  rotateToken(environment: EnvironmentTag, currentToken: string): UserGroup | undefined {
    const group = this.data.groups.find((candidate) => candidate.api_environment_tag === environment && candidate.token === currentToken)
    if (!group) return undefined
    group.token = this.newToken()
    return asResponse(group)
  }
}
