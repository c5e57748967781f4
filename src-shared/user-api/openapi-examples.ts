/**
 * The examples of the OpenAPI document: requests made to a fresh sandbox, in this order, with
 * the answers it gave, copied as they came (but for the group tokens, which are random each run).
 * test/unit/openapi/openapi-sandbox.test.ts sends every request again to a real sandbox and
 * compares its answer with the one here, so an example cannot drift from what the API answers.
 */

/** A response shared by all three operations, kept once under `components.responses`. */
export type SharedResponseName = 'Unauthorized' | 'MethodNotAllowed' | 'PayloadTooLarge' | 'ServerError'

export interface ApiExample {
  /** The key in the document's `examples` maps: a request and its answer share it. */
  key: string
  summary: string
  /** What was sent, when it cannot be shown as a request example (a header, a body that is not JSON). */
  description?: string
  request: {
    method: 'GET' | 'PUT' | 'POST' | 'DELETE'
    /** How the Authorization header differed from `Token <the Customer API token>`. */
    authorization?: 'missing' | 'other-scheme' | 'unknown-token'
    /** `json` is shown as the operation's request example; `text` and `overLimit` are described. */
    body: { json: unknown } | { text: string } | { overLimit: true }
    /** Before this request the sandbox's data folder was removed, so it cannot save. */
    /** Another process holds the sandbox database's write lock while this request is answered. */
    databaseBusy?: true
  }
  response: {
    status: number
    /** The headers the document names for this answer, as sent. */
    headers?: Record<string, string>
    body: unknown
  }
  /** Where the answer is documented when it is not specific to the operation. */
  shared?: SharedResponseName
}

const CREATED_TOKEN = '800a1011abaee05e9cde95deb3a189db1ab9f6d4a4c9b803c5b6cea78cfb43b0'
const ROTATED_TOKEN = '389d65f073c3ae83f9dab9eed160b60d8f2d4a4f66ce9ba5d5a9d40447ba55d8'

const acme = {
  team_id: 1,
  token: CREATED_TOKEN,
  name: 'Acme Corp',
  provided_id: 'acme',
  properties: { region: 'eu', seats: 25 },
  api_environment_tag: 'Customer',
}
const acmeUpdated = { ...acme, name: 'Acme Corporation', properties: { region: 'eu', seats: 40 } }

const failure = (error: string) => ({ success: 0, error })

export const API_EXAMPLES: readonly ApiExample[] = [
  {
    key: 'created',
    summary: 'A new id: the group is created',
    request: {
      method: 'GET',
      body: {
        json: { user_group_id: 'acme', name: 'Acme Corp', mapping: { sales: 'warehouse-eu' }, properties: { region: 'eu', seats: 25 } },
      },
    },
    response: { status: 200, body: { success: 1, new_user_group: true, user_group: acme } },
  },
  {
    key: 'existing',
    summary: 'A known id: the group comes back unchanged',
    description: 'The name sent changes nothing: get-or-create never changes a group (PUT does).',
    request: { method: 'GET', body: { json: { user_group_id: 'acme', name: 'Acme Inc.' } } },
    response: { status: 200, body: { success: 1, new_user_group: false, user_group: acme } },
  },
  {
    key: 'missingId',
    summary: 'No user_group_id',
    request: { method: 'GET', body: { json: { name: 'Acme Corp' } } },
    response: { status: 400, body: failure('The request body is not valid: user_group_id: a non-empty string is required.') },
  },
  {
    key: 'unknownField',
    summary: 'A misspelt field',
    request: { method: 'GET', body: { json: { user_group_id: 'acme', nmae: 'Acme Corp' } } },
    response: { status: 400, body: failure('The request body is not valid: body: Unrecognized key: "nmae".') },
  },
  {
    key: 'updated',
    summary: 'Change the name and properties',
    request: {
      method: 'PUT',
      body: { json: { user_group_id: 'acme', name: 'Acme Corporation', properties: { region: 'eu', seats: 40 } } },
    },
    response: { status: 200, body: { success: 1, user_group: acmeUpdated } },
  },
  {
    key: 'unknownGroup',
    summary: 'No group has this id',
    request: { method: 'PUT', body: { json: { user_group_id: 'globex', name: 'Globex' } } },
    response: { status: 404, body: failure('No user group with user_group_id "globex" exists in the Customer environment.') },
  },
  {
    key: 'notJson',
    summary: 'A body that is not JSON',
    description: 'The request body was `{"user_group_id": "acme",` (cut off).',
    request: { method: 'PUT', body: { text: '{"user_group_id": "acme",' } },
    response: { status: 400, body: failure('The request body is not JSON.') },
  },
  {
    key: 'rotated',
    summary: 'Rotate the token',
    request: { method: 'POST', body: { json: { current_token: CREATED_TOKEN } } },
    response: { status: 200, body: { success: 1, user_group: { ...acmeUpdated, token: ROTATED_TOKEN } } },
  },
  {
    key: 'oldToken',
    summary: 'A token already rotated away',
    description: 'The token the rotation example replaced: it stopped working at once.',
    request: { method: 'POST', body: { json: { current_token: CREATED_TOKEN } } },
    response: { status: 404, body: failure('No user group in the Customer environment has this token.') },
  },
  {
    key: 'emptyCurrentToken',
    summary: 'An empty current_token',
    request: { method: 'POST', body: { json: { current_token: '' } } },
    response: {
      status: 400,
      body: failure('The request body is not valid: current_token: the current user group token is required, not an empty string.'),
    },
  },
  {
    key: 'emptyBody',
    summary: 'No body at all',
    description: 'The request had no body.',
    request: { method: 'POST', body: { text: '' } },
    response: { status: 400, body: failure('The request body is empty: send a JSON object.') },
  },
  {
    key: 'missingAuthorization',
    summary: 'No Authorization header',
    description: 'A GET with a valid body and no `Authorization` header.',
    request: { method: 'GET', authorization: 'missing', body: { json: { user_group_id: 'acme' } } },
    response: {
      status: 401,
      headers: { 'www-authenticate': 'Token' },
      body: failure('The Authorization header is missing: send "Authorization: Token <API_TOKEN>".'),
    },
    shared: 'Unauthorized',
  },
  {
    key: 'otherScheme',
    summary: 'Another scheme than Token',
    description: 'A GET with `Authorization: Bearer <API_TOKEN>`.',
    request: { method: 'GET', authorization: 'other-scheme', body: { json: { user_group_id: 'acme' } } },
    response: {
      status: 401,
      headers: { 'www-authenticate': 'Token' },
      body: failure('The Authorization header must read "Token <API_TOKEN>".'),
    },
    shared: 'Unauthorized',
  },
  {
    key: 'unknownToken',
    summary: 'An API token the server does not know',
    description: 'A GET with `Authorization: Token` and a token of neither environment.',
    request: { method: 'GET', authorization: 'unknown-token', body: { json: { user_group_id: 'acme' } } },
    response: { status: 401, headers: { 'www-authenticate': 'Token' }, body: failure('The API token is not recognised.') },
    shared: 'Unauthorized',
  },
  {
    key: 'delete',
    summary: 'DELETE /api/user',
    description: 'A DELETE with the API token: nothing in the API deletes a group.',
    request: { method: 'DELETE', body: { json: { user_group_id: 'acme' } } },
    response: {
      status: 405,
      headers: { allow: 'GET, PUT, POST, OPTIONS' },
      body: failure('DELETE is not allowed on /api/user: use GET (get or create), PUT (update) or POST (rotate a token).'),
    },
    shared: 'MethodNotAllowed',
  },
  {
    key: 'overLimit',
    summary: 'A body over 1 MB',
    description: 'A GET whose `Content-Length` announces 1 MB and one byte.',
    request: { method: 'GET', body: { overLimit: true } },
    response: { status: 413, headers: { connection: 'close' }, body: failure('The request body is larger than 1 MB.') },
    shared: 'PayloadTooLarge',
  },
  {
    key: 'notSaved',
    summary: 'The change could not be saved',
    description: "A GET creating a group while another process held the sandbox database's write lock for too long.",
    request: { method: 'GET', databaseBusy: true, body: { json: { user_group_id: 'initech', name: 'Initech' } } },
    response: { status: 500, body: failure('sandbox.db is busy: another process has been writing to it for too long. Try again.') },
    shared: 'ServerError',
  },
]
