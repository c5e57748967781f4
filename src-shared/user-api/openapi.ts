import { z } from 'zod'
import { buildCodeSample, type SampleCall, type SampleLanguage } from './code-samples'
import { API_EXAMPLES, type ApiExample, type SharedResponseName } from './openapi-examples'
import {
  ApiFailureBodySchema,
  EnvironmentTagSchema,
  type GetOrCreateRequest,
  GetOrCreateRequestSchema,
  GetOrCreateResponseSchema,
  MappingSchema,
  PropertiesSchema,
  RotateTokenRequestSchema,
  RotateTokenResponseSchema,
  type UpdateRequest,
  UpdateRequestSchema,
  UpdateResponseSchema,
  USER_API_PATH,
  UserGroupSchema,
} from './schemas'

/*
 * The OpenAPI 3.1 description of /api/user. Its schemas are zod's own JSON Schema output of
 * ./schemas.ts (OpenAPI 3.1 speaks JSON Schema 2020-12, zod's default target), so the document,
 * the client and the sandbox read one definition. The prose states the choices of
 * docs/api-decisions.md where the API as docs/user-group-api.md states it is silent. A pure function, so the CLI, the
 * sandbox and (later) the site editor's "Add the API reference" each build it in one call.
 */

type Json = null | boolean | number | string | Json[] | { [key: string]: Json }
type JsonObject = { [key: string]: Json }

export interface OpenApiDocument extends JsonObject {
  openapi: string
  info: JsonObject
  servers: JsonObject[]
  paths: JsonObject
  components: JsonObject
}

export interface OpenApiOptions {
  /** `servers[0].url`: a deployment's base URL, without `/api/user`. Otherwise a `{base_url}` variable. */
  serverUrl?: string
  /** `info.contact`: where the document's readers ask about the API (a URL or an e-mail address). */
  contact?: { url: string } | { email: string }
}

const OPENAPI_VERSION = '3.1.0'
/**
 * The API has no version (docs/user-group-api.md section 9), so this is the document's own: raise it when what the
 * document promises changes, not for wording. Not the app's version, which moves for other reasons.
 */
const DOCUMENT_VERSION = '1.0.0'
const OPENAPI_PATH = `/${USER_API_PATH}`
const JSON_MEDIA = 'application/json'
/** The README's `embed-console sandbox --port 8765`: the default server, and the samples' URL. */
const SANDBOX_EXAMPLE_URL = 'http://127.0.0.1:8765'
const SECURITY_SCHEME = 'apiToken'
const ALLOWED_METHODS = 'GET, PUT, POST, OPTIONS'
/** `info.contact` when none is given: who wrote the document (`embed-console openapi --contact` names the API's support). */
const GENERATOR_CONTACT = { name: 'Embed Console, which generated this document' }
const schemaRef = (id: string) => ({ $ref: `#/components/schemas/${id}` })
const responseRef = (name: SharedResponseName) => ({ $ref: `#/components/responses/${name}` })

type Operation = 'get' | 'put' | 'post'

/**
 * zod writes z.json() as a recursive union of every JSON type. In a JSON body that is what an
 * empty JSON Schema already means, and docs tools stop at the recursion (Mintlify's converter
 * gives up on it), so the component says it plainly. The check keeps the name honest.
 */
function anyJsonValue(generated: JsonObject): JsonObject {
  const types = (generated.anyOf as JsonObject[] | undefined)?.map((branch) => branch.type)
  if (JSON.stringify(types) !== '["string","number","boolean","null","array","object"]')
    throw new Error('The JsonValue component is no longer z.json(): give it another name in openapi.ts.')
  return { title: 'JSON value', description: 'Any JSON value: a string, number, boolean, null, array or object.' }
}

/** zod's JSON Schema for each named schema; references between them point into components. */
function componentSchemas(): JsonObject {
  // Requests are what a caller writes (zod's input side); answers what the server sends (output).
  const requests = z.registry<{ id: string }>()
  requests.add(GetOrCreateRequestSchema, { id: 'GetOrCreateRequest' })
  requests.add(UpdateRequestSchema, { id: 'UpdateRequest' })
  requests.add(RotateTokenRequestSchema, { id: 'RotateTokenRequest' })
  requests.add(MappingSchema, { id: 'Mapping' })
  requests.add(PropertiesSchema, { id: 'Properties' })
  // z.json() is recursive, so zod needs a component to refer to (see anyJsonValue).
  requests.add(PropertiesSchema.valueType, { id: 'JsonValue' })

  const answers = z.registry<{ id: string }>()
  answers.add(GetOrCreateResponseSchema, { id: 'GetOrCreateResponse' })
  answers.add(UpdateResponseSchema, { id: 'UpdateResponse' })
  answers.add(RotateTokenResponseSchema, { id: 'RotateTokenResponse' })
  answers.add(UserGroupSchema, { id: 'UserGroup' })
  answers.add(EnvironmentTagSchema, { id: 'EnvironmentTag' })
  answers.add(ApiFailureBodySchema, { id: 'ApiFailure' })
  answers.add(UserGroupSchema.shape.properties.unwrap().unwrap(), { id: 'JsonValue' })

  const merged: JsonObject = {}
  for (const [registry, io] of [
    [requests, 'input'],
    [answers, 'output'],
  ] as const) {
    const { schemas } = z.toJSONSchema(registry, { io, uri: (id) => `#/components/schemas/${id}`, unrepresentable: 'throw' })
    for (const [id, generated] of Object.entries(schemas)) {
      // OpenAPI 3.1 gives every schema the document's dialect and base: no $schema or $id each.
      const { $schema: _dialect, $id: _id, ...rest } = generated as JsonObject
      const schema = id === 'JsonValue' ? anyJsonValue(rest) : rest
      if (id === '__shared')
        throw new Error('A schema used by several components has no id: add it to a registry in openapi.ts so it gets a component name.')
      if (merged[id] !== undefined && JSON.stringify(merged[id]) !== JSON.stringify(schema))
        throw new Error(`Two different schemas are named ${id} in the OpenAPI document.`)
      merged[id] = schema
    }
  }
  return merged
}

const INFO_DESCRIPTION = `One path, \`{base_url}/api/user\`, where the method selects the operation: **GET** gets a user group or creates it, **PUT** updates it, **POST** rotates its token. Requests and answers are JSON.

Embed Console generates this document from the zod schemas its client and its local sandbox validate with, and its examples are the sandbox's real answers. Where the product's spec leaves a point open, the document states the choice Embed Console makes (recorded in its \`docs/api-decisions.md\`).

**Authentication.** Every request sends \`Authorization: Token <API_TOKEN>\` (the word \`Token\` is matched in any case). An API token belongs to one environment, \`Customer\` or \`Testing\`: group ids are unique within an environment, and a group token is looked up only in the caller's. A missing or malformed header, or an unknown token, gets 401 with \`WWW-Authenticate: Token\`, before the body is read. The user group token in the answers is a different credential: it identifies the group when an embedded dashboard is rendered.

**Errors.** Every answer carries \`success\`: 1 for success, 0 for failure. A failure has a real HTTP status (400, 401, 404, 405, 413 or 500) and the body \`{"success": 0, "error": "<sentence>"}\`; some servers put the sentence in \`message\` instead. No request gets 409: get-or-create on a known id returns that group. A path other than \`/api/user\` (\`/api/user/\` included) gets a plain-text 404 without this envelope, so a 404 *with* the envelope means "no such group or token" and one *without* it means a wrong base URL. An error never repeats a token. A query string is ignored, and the body is read as JSON whatever the \`Content-Type\` says. Browsers may call the API from any origin: answers carry \`Access-Control-Allow-Origin: *\`, and the CORS preflight (OPTIONS) is answered without a token.

**Limits.** A request body may be up to 1 MB (exactly 1 MB is accepted); past that the answer is 413 and the connection is closed. Embed Console's client reads at most 5 MB of an answer and gives up after 15 s by default. Nothing is retried automatically: get-or-create and update would be safe to retry, a rotation is not. A server that limits requests answers 429 with \`Retry-After\`; the sandbox has no rate limit.

**Versioning and the base URL.** There is no version header. A deployment with a version or tenant prefix puts it in the base URL: \`https://host/tenant/v1\` gives \`https://host/tenant/v1/api/user\`. The base URL is http or https, without a user name, password, query or fragment. Redirects are not followed, so the API token is never sent to an address the operator did not choose.`

const GET_DESCRIPTION = `Returns the user group with this \`user_group_id\` in the API token's environment, creating it when there is none (\`new_user_group: true\`). A known id returns the group unchanged, whatever else the request says: PUT changes it. Keep the answer's \`token\`: it is the user group token for rendering embedded dashboards.

**This GET carries a JSON body, which is unusual.** HTTP gives a body on GET no meaning and many clients refuse or drop it: \`fetch\`, in browsers and in Node, throws on a GET with a body, so a docs playground built on \`fetch\` cannot send this request. Send it with:

- curl: \`curl -X GET "$BASE_URL/api/user" -H "Authorization: Token $API_TOKEN" -H "Content-Type: application/json" --data '{"user_group_id": "acme"}'\` (not \`-G\`, which moves the data into the query string);
- Node: \`http.request\` or \`https.request\` with \`method: 'GET'\`, writing the JSON before \`end()\` (or undici's \`request\`).

\`user_group_id\` is required and must contain a non-space character; \`name\`, \`mapping\` and \`properties\` are optional. An unknown field is refused with 400, not dropped. The mapping is kept but no answer returns it. The sandbox gives a group created without a name the empty string; another server may answer \`null\`.

The sandbox keeps text exactly: \`properties\` come back as the JSON text they were sent in (a \`__proto__\` key, an integer past 2^53), and an id or name it could not keep as sent (one holding a NUL, or half of a surrogate pair) is refused with 400 rather than changed.`

const PUT_DESCRIPTION = `Changes only the fields given on the user group with this \`user_group_id\` in the API token's environment, and returns the group: its token and \`team_id\` stay the same. Send only the fields to change; a field sent as \`null\` is refused (400), not cleared. An unknown id gets 404 and nothing is created: GET creates.`

const POST_DESCRIPTION = `Issues a new random token to the user group that holds \`current_token\` in the API token's environment; the old token stops working at once. \`team_id\`, \`name\` and \`provided_id\` stay the same. An empty \`current_token\` gets 400, an unknown one 404 (which does not repeat the token).

**Not idempotent.** A retry could rotate twice and lose the token issued in between, so Embed Console never retries a rotation and sends each on a connection of its own. When the answer is lost (a timeout, a reset, a 5xx without the API's envelope) the outcome is unknown: the old token may already be invalid, so check before acting.`

const SHARED_RESPONSES: Record<
  SharedResponseName,
  { description: string; headers?: Record<string, { description: string; schema: JsonObject }> }
> = {
  Unauthorized: {
    description:
      'The `Authorization` header is missing, does not read `Token <API_TOKEN>`, or names a token of neither environment. Checked before the body is read.',
    headers: { 'WWW-Authenticate': { description: 'The scheme to use.', schema: { type: 'string', const: 'Token' } } },
  },
  MethodNotAllowed: {
    description:
      'A method other than GET, PUT, POST or OPTIONS on `/api/user` (DELETE, PATCH, HEAD…). Nothing in the API deletes a user group.',
    headers: { Allow: { description: 'The methods `/api/user` accepts.', schema: { type: 'string', const: ALLOWED_METHODS } } },
  },
  PayloadTooLarge: {
    description:
      'The request body is over 1 MB. Answered as soon as `Content-Length` announces it, or once a chunked body passes the limit; the connection is then closed and the rest of the body is not read. Make the mapping or properties smaller.',
    headers: {
      Connection: { description: 'The server closes the connection after this answer.', schema: { type: 'string', const: 'close' } },
    },
  },
  ServerError: {
    description:
      'The server failed while handling the request. The sandbox answers 500 when it could not save a change to its database (another process kept it busy, or the disk failed).',
  },
}

const statusDescriptions: Record<Operation, Record<number, string | SharedResponseName>> = {
  get: {
    200: 'The user group, found or created: `new_user_group` tells which. A creation is 200 too.',
    400: 'The body is empty, not UTF-8 JSON, or not valid: a missing or blank `user_group_id`, an unknown field, a value of the wrong type, an id or name holding a NUL or half a surrogate pair. The sentence names each field and its problem.',
    401: 'Unauthorized',
    413: 'PayloadTooLarge',
    500: 'ServerError',
  },
  put: {
    200: 'The user group after the update.',
    400: 'The body is empty, not UTF-8 JSON, or not valid: a missing or blank `user_group_id`, an unknown field, a value of the wrong type, an id or name holding a NUL or half a surrogate pair. The sentence names each field and its problem.',
    401: 'Unauthorized',
    404: "No user group has this `user_group_id` in the API token's environment.",
    413: 'PayloadTooLarge',
    500: 'ServerError',
  },
  post: {
    200: 'The user group with its new token.',
    400: 'The body is empty, not JSON, or not valid: a missing or empty `current_token`, an unknown field.',
    401: 'Unauthorized',
    404: "No user group in the API token's environment has this `current_token`.",
    413: 'PayloadTooLarge',
    500: 'ServerError',
  },
}

const isShared = (value: string): value is SharedResponseName => value in SHARED_RESPONSES

function responseExamples(examples: ApiExample[], description: (example: ApiExample) => string | undefined): JsonObject {
  return Object.fromEntries(
    examples.map((example) => {
      const text = description(example)
      return [
        example.key,
        { summary: example.summary, ...(text === undefined ? {} : { description: text }), value: example.response.body as Json },
      ]
    }),
  )
}

function jsonContent(schemaId: string, examples: JsonObject): JsonObject {
  return { [JSON_MEDIA]: { schema: schemaRef(schemaId), ...(Object.keys(examples).length > 0 ? { examples } : {}) } }
}

interface OperationFields {
  summary: string
  operationId: string
  description: string
  /** The request body's own description. */
  body: string
  request: { id: string; schema: z.ZodType }
  answer: string
  /** `x-codeSamples` built from the first request example's body. */
  codeSamples: (body: unknown) => JsonObject[]
}

/**
 * Every answer's `user_group.token` is the `current_token` a rotation takes: the link a docs
 * site or a generated client follows from any of the three operations to the next rotation.
 */
const ROTATION_LINK: JsonObject = {
  rotateToken: {
    operationId: 'rotateUserGroupToken',
    description: 'The `user_group.token` of this answer is the `current_token` that rotates it.',
    requestBody: { current_token: '{$response.body#/user_group/token}' },
  },
}

function operation(method: Operation, fields: OperationFields): JsonObject {
  const ownExamples = API_EXAMPLES.filter((example) => example.shared === undefined && example.request.method.toLowerCase() === method)
  // A request example fits the request schema; a body the schema refuses is quoted beside its answer.
  const shownBody = ({ request }: ApiExample) =>
    'json' in request.body && fields.request.schema.safeParse(request.body.json).success ? (request.body.json as Json) : undefined
  const requestExamples: JsonObject = {}
  for (const example of ownExamples) {
    const body = shownBody(example)
    if (body !== undefined) requestExamples[example.key] = { summary: example.summary, value: body }
  }
  const describe = (example: ApiExample) => {
    const { body } = example.request
    if (example.description !== undefined || shownBody(example) !== undefined || !('json' in body)) return example.description
    return `The request body was \`${JSON.stringify(body.json)}\`.`
  }
  const responses: JsonObject = {}
  for (const [status, description] of Object.entries(statusDescriptions[method])) {
    if (isShared(description)) {
      responses[status] = responseRef(description)
      continue
    }
    const examples = ownExamples.filter((example) => String(example.response.status) === status)
    const success = Number(status) < 300
    responses[status] = {
      description,
      content: jsonContent(success ? fields.answer : 'ApiFailure', responseExamples(examples, describe)),
      ...(success ? { links: ROTATION_LINK } : {}),
    }
  }
  const firstBody = Object.values(requestExamples)[0] as { value: Json } | undefined
  return {
    summary: fields.summary,
    operationId: fields.operationId,
    description: fields.description,
    tags: ['User groups'],
    ...(firstBody ? { 'x-codeSamples': fields.codeSamples(firstBody.value) } : {}),
    requestBody: {
      description: fields.body,
      required: true,
      content: { [JSON_MEDIA]: { schema: schemaRef(fields.request.id), examples: requestExamples } },
    },
    responses,
  }
}

function sharedResponses(): JsonObject {
  return Object.fromEntries(
    Object.entries(SHARED_RESPONSES).map(([name, { description, headers }]) => [
      name,
      {
        description,
        ...(headers ? { headers } : {}),
        content: jsonContent(
          'ApiFailure',
          responseExamples(
            API_EXAMPLES.filter((example) => example.shared === name),
            (example) => example.description,
          ),
        ),
      },
    ]),
  )
}

const SAMPLE_LANGUAGES: Array<[language: SampleLanguage, lang: string, label: (call: SampleCall) => string]> = [
  ['curl', 'bash', () => 'curl'],
  ['javascript', 'javascript', (call) => (call.operation === 'getOrCreate' ? 'Node (http.request)' : 'JavaScript (fetch)')],
  ['python', 'python', () => 'Python (requests)'],
]

/**
 * The app's own code samples (src-shared/user-api/code-samples.ts) as `x-codeSamples`, which
 * Mintlify and Redoc show: the GET's avoid fetch, which refuses its body, and a rotation reads
 * the group's token from $CURRENT_GROUP_TOKEN. The API token comes from $EMBED_CONSOLE_TOKEN.
 */
function codeSamples(baseUrl: string, call: SampleCall): JsonObject[] {
  return SAMPLE_LANGUAGES.map(([language, lang, label]) => ({
    lang,
    label: label(call),
    source: buildCodeSample(language, baseUrl, call).code,
  }))
}

/**
 * The methods the API does not accept, on the path so that its 405 is attached to it. Hidden from
 * a docs site's navigation (Mintlify's `x-hidden`): no reader needs a page for them.
 */
function notAllowed(method: 'DELETE' | 'PATCH'): JsonObject {
  return {
    summary: `${method} is not allowed`,
    operationId: `${method.toLowerCase()}UserGroupNotAllowed`,
    description: `Nothing in the API ${method === 'DELETE' ? 'deletes' : 'patches'} a user group: \`/api/user\` answers ${method} (and any method but GET, PUT, POST and OPTIONS) with 405, before it looks at the token.`,
    tags: ['User groups'],
    security: [],
    'x-hidden': true,
    responses: { 405: responseRef('MethodNotAllowed') },
  }
}

/** The CORS preflight browsers send before a PUT or POST from another origin (a docs playground). */
const PREFLIGHT: JsonObject = {
  summary: 'CORS preflight',
  operationId: 'userGroupPreflight',
  description:
    "What a browser asks before it sends PUT or POST (or GET with a body) from a page of another origin, such as a docs site's playground. Answered without a token: any origin may call the API, since every call needs the API token and no cookie is involved. A public page may reach a local sandbox (Chrome's Private Network Access).",
  tags: ['User groups'],
  security: [],
  'x-hidden': true,
  responses: {
    204: {
      description: 'The methods and headers a call from another origin may use.',
      headers: {
        Allow: { description: 'The methods `/api/user` accepts.', schema: { type: 'string', const: ALLOWED_METHODS } },
        'Access-Control-Allow-Origin': { description: 'Any origin.', schema: { type: 'string', const: '*' } },
        'Access-Control-Allow-Methods': { description: 'The methods of the API.', schema: { type: 'string', const: 'GET, PUT, POST' } },
        'Access-Control-Allow-Headers': {
          description: 'The headers a call sends.',
          schema: { type: 'string', const: 'Authorization, Content-Type' },
        },
        'Access-Control-Allow-Private-Network': {
          description: 'Sent when the preflight asks (Access-Control-Request-Private-Network: true).',
          schema: { type: 'string', const: 'true' },
        },
      },
    },
  },
}

function servers(serverUrl: string | undefined): JsonObject[] {
  if (serverUrl !== undefined) return [{ url: serverUrl }]
  return [
    {
      url: '{base_url}',
      description: 'Your deployment of the API',
      variables: {
        base_url: {
          default: SANDBOX_EXAMPLE_URL,
          description: 'The base URL, without /api/user. The default is a local sandbox started with `embed-console sandbox --port 8765`.',
        },
      },
    },
  ]
}

/** The OpenAPI 3.1 document of GET, PUT and POST {base_url}/api/user. */
export function buildOpenApiDocument(options: OpenApiOptions = {}): OpenApiDocument {
  const serverUrl = options.serverUrl?.replace(/\/+$/, '')
  const sampleUrl = serverUrl ?? SANDBOX_EXAMPLE_URL
  return {
    openapi: OPENAPI_VERSION,
    info: {
      title: 'User groups API',
      summary: 'Get or create, update and rotate the token of the user groups of embedded dashboards.',
      description: INFO_DESCRIPTION,
      version: DOCUMENT_VERSION,
      contact: options.contact ? { name: 'API support', ...options.contact } : GENERATOR_CONTACT,
      license: { name: 'MIT', identifier: 'MIT' },
    },
    servers: servers(serverUrl),
    security: [{ [SECURITY_SCHEME]: [] }],
    tags: [{ name: 'User groups', description: 'The user groups of embedded dashboards, at `{base_url}/api/user`.' }],
    paths: {
      [OPENAPI_PATH]: {
        description: `Every operation of the API; the method selects it. Browsers' CORS preflight (OPTIONS) is answered without a token; any other method gets 405 with \`Allow: ${ALLOWED_METHODS}\` (the \`MethodNotAllowed\` response, shown on DELETE and PATCH).`,
        get: operation('get', {
          summary: 'Get or create a user group',
          operationId: 'getOrCreateUserGroup',
          description: GET_DESCRIPTION,
          body: "A JSON body on a GET, which is unusual: send it with `curl -X GET --data '…'` or Node's `http.request`, not with `fetch`, which refuses a body on GET. The id of the group, and what to create it with if it does not exist yet.",
          request: { id: 'GetOrCreateRequest', schema: GetOrCreateRequestSchema },
          answer: 'GetOrCreateResponse',
          codeSamples: (body) => codeSamples(sampleUrl, { operation: 'getOrCreate', request: body as GetOrCreateRequest }),
        }),
        put: operation('put', {
          summary: 'Update a user group',
          operationId: 'updateUserGroup',
          description: PUT_DESCRIPTION,
          body: 'The id of the group, and only the fields to change.',
          request: { id: 'UpdateRequest', schema: UpdateRequestSchema },
          answer: 'UpdateResponse',
          codeSamples: (body) => codeSamples(sampleUrl, { operation: 'update', request: body as UpdateRequest }),
        }),
        post: operation('post', {
          summary: "Rotate a user group's token",
          operationId: 'rotateUserGroupToken',
          description: POST_DESCRIPTION,
          body: 'The token of the group to rotate.',
          request: { id: 'RotateTokenRequest', schema: RotateTokenRequestSchema },
          answer: 'RotateTokenResponse',
          codeSamples: () => codeSamples(sampleUrl, { operation: 'rotateToken' }),
        }),
        options: PREFLIGHT,
        delete: notAllowed('DELETE'),
        patch: notAllowed('PATCH'),
      },
    },
    components: {
      schemas: componentSchemas(),
      responses: sharedResponses(),
      securitySchemes: {
        [SECURITY_SCHEME]: {
          type: 'apiKey',
          in: 'header',
          name: 'Authorization',
          description:
            'The header reads `Token <API_TOKEN>`: the word `Token`, one space, then the API token of one environment (`Customer` or `Testing`). In a docs playground, set the prefix `Token ` so readers paste only the token.',
        },
      },
    },
  }
}

/** The document as a file holds it (docs/openapi.json, `embed-console openapi`): 2-space JSON, final newline. */
export const openApiFileText = (document: OpenApiDocument): string => `${JSON.stringify(document, null, 2)}\n`
