import { z } from 'zod'

/**
 * The /api/user requests and responses, written once from the tables of docs/user-group-api.md
 * (the product's statement of its user-group API, "the spec"; sections 2 and 4). The client, the
 * sandbox and the UI (through `z.toJSONSchema`) all derive from these. Where the spec says "not
 * shown", the choice is recorded in docs/api-decisions.md.
 */

/** Every operation shares this path under the base URL; the method selects the operation. */
export const USER_API_PATH = 'api/user'

/**
 * `{base_url}/api/user` for a base URL that passed BaseUrlSchema (src-shared/profiles): a path
 * prefix is kept, trailing slashes are not doubled. The client, the code samples and the
 * OpenAPI document all call here.
 */
export const userApiUrl = (baseUrl: string): string => `${baseUrl.replace(/\/+$/, '')}/${USER_API_PATH}`

export const EnvironmentTagSchema = z
  .enum(['Customer', 'Testing'])
  .describe('Environment of the user group: a production customer group (Customer) or a test group (Testing).')
export type EnvironmentTag = z.infer<typeof EnvironmentTagSchema>

export const MappingSchema = z.record(z.string(), z.string({ error: 'must be a string: the data source, or the id you gave it' })).meta({
  title: 'Mapping',
  description:
    'Maps a schema id to the data source the user group uses: either the data source itself or the id you gave that data source when you created it.',
})
export type Mapping = z.infer<typeof MappingSchema>

export const PropertiesSchema = z.record(z.string(), z.json()).meta({
  title: 'Properties',
  description: 'Free-form JSON object assigned to the user group; available as variables in dashboards and in the SQL editor.',
})
export type Properties = z.infer<typeof PropertiesSchema>

// A blank id is refused rather than sent: it is almost always an empty form field, and the
// server would otherwise file a group under an id nobody can type again.
const UserGroupIdSchema = z
  .string({ error: 'a non-empty string is required' })
  .regex(/\S/, 'a non-empty string is required')
  .describe('The id you use for this user group in your own database (provided_id in responses).')

const INVISIBLE = /[\p{Cc}\p{Cf}\p{Zl}\p{Zp}]|(?! )\p{Zs}/u

const codePointName = (character: string) => `U+${character.codePointAt(0)!.toString(16).toUpperCase().padStart(4, '0')}`

/**
 * Why the app will not send this user_group_id, or undefined. The API keeps an id exactly as
 * given, so " acme", "acme " and "ac\u200bme" would each become a group of their own that looks
 * like "acme" and that nobody can find by typing it. The sandbox, like the API, accepts them: the
 * app refuses to send them (the client, so the screens and the CLI alike).
 */
export function userGroupIdProblem(id: string): string | undefined {
  // A byte order mark is what a file starts with: at the start of an id, a second file was joined
  // (or pasted) into this one, and its first line kept it. Not a space, whatever \s says.
  if (id.startsWith('\uFEFF') && id.length > 1) {
    return `user_group_id starts with a byte order mark (U+FEFF), the invisible character a file can begin with: a second file was probably joined or pasted here and its first line kept it. The API would file a group that looks like “${id.slice(1)}” but is another. Remove the mark.`
  }
  if (/^ | $/u.test(id) && id.trim()) {
    return `user_group_id ${id.startsWith(' ') ? 'starts' : 'ends'} with a space: the API would keep it, and file a group that looks like “${id.trim()}” but is another. Remove the space.`
  }
  const hidden = INVISIBLE.exec(id)
  if (hidden) {
    const position = [...id.slice(0, hidden.index)].length + 1
    const looksLike = id.replace(new RegExp(INVISIBLE, 'gu'), (character) => (/\p{Zs}/u.test(character) ? ' ' : ''))
    return `user_group_id holds a hidden character (${codePointName(hidden[0])}, invisible or not a plain space) at position ${position}: the API would file a group that looks like “${looksLike}” but is another. Retype the id.`
  }
  return undefined
}

const NameSchema = z.string().describe('Name of the user group.')

// Strict: an unknown key is a typo the operator should see, not a field silently dropped.
const userGroupFields = {
  user_group_id: UserGroupIdSchema,
  name: NameSchema.optional(),
  mapping: MappingSchema.optional(),
  properties: PropertiesSchema.optional(),
}

export const GetOrCreateRequestSchema = z
  .strictObject(userGroupFields)
  .describe('GET /api/user: returns the user group with this user_group_id, creating it when none exists.')
export type GetOrCreateRequest = z.infer<typeof GetOrCreateRequestSchema>

export const UpdateRequestSchema = z
  .strictObject(userGroupFields)
  .describe('PUT /api/user: changes the fields given on the existing user group with this user_group_id.')
export type UpdateRequest = z.infer<typeof UpdateRequestSchema>

export const RotateTokenRequestSchema = z
  .strictObject({
    current_token: z
      .string({ error: 'the current user group token is required' })
      .min(1, 'the current user group token is required, not an empty string')
      .describe('The current token of the user group whose token is rotated.'),
  })
  .describe('POST /api/user: issues a new token for the user group; the current one stops working.')
export type RotateTokenRequest = z.infer<typeof RotateTokenRequestSchema>

// Loose: fields docs/user-group-api.md section 2 does not list are kept, so the UI can show the response as received.
export const UserGroupSchema = z.looseObject({
  team_id: z.number().describe('Internal id of the user group; callers need not store it.'),
  token: z.string().describe('The user group token that authenticates an embedded dashboard for this group.'),
  // docs/user-group-api.md section 2 types name as a string, but a group created without one may come back as null.
  name: z.string().nullable().describe('The name given in the request body.'),
  provided_id: z.string().describe('The user_group_id given in the request body.'),
  properties: z.json().nullable().optional().describe('The properties object, if one was given.'),
  api_environment_tag: EnvironmentTagSchema.nullable().optional(),
})
export type UserGroup = z.infer<typeof UserGroupSchema>

const successFlag = z.literal(1).describe('1: the call succeeded.')

export const GetOrCreateResponseSchema = z.looseObject({
  success: successFlag,
  new_user_group: z.boolean().describe('True when this call created the user group.'),
  user_group: UserGroupSchema,
})
export type GetOrCreateResponse = z.infer<typeof GetOrCreateResponseSchema>

export const UpdateResponseSchema = z.looseObject({
  success: successFlag,
  user_group: UserGroupSchema,
})
export type UpdateResponse = z.infer<typeof UpdateResponseSchema>

export const RotateTokenResponseSchema = z.looseObject({
  success: successFlag,
  user_group: UserGroupSchema.describe('The user group, carrying its new token.'),
})
export type RotateTokenResponse = z.infer<typeof RotateTokenResponseSchema>

/** docs/user-group-api.md section 7 shows no error body; `error` is what the sandbox sends, `message` a common alternative. */
export const ApiFailureBodySchema = z
  .looseObject({
    success: z.literal(0).describe('0: the call failed.'),
    error: z.string().optional().describe('What went wrong, in one sentence. The sandbox always sends it.'),
    message: z.string().optional().describe('Where some servers put that sentence instead of `error`.'),
  })
  .describe('A failure: `success` is 0, the HTTP status says which kind, and `error` says what went wrong.')
