import { readFile } from 'node:fs/promises'
import { OpenApiToEndpointConverter } from '@mintlify/validation'
import { compileErrors, dereference, validate } from '@readme/openapi-parser'
import { Ajv2020 } from 'ajv/dist/2020.js'
import { describe, expect, it } from 'vitest'
import { buildOpenApiDocument, type OpenApiDocument, openApiFileText } from '../../../src-shared/user-api/openapi'
import { API_EXAMPLES } from '../../../src-shared/user-api/openapi-examples'
import {
  GetOrCreateRequestSchema,
  RotateTokenRequestSchema,
  UpdateRequestSchema,
  UserGroupSchema,
} from '../../../src-shared/user-api/schemas'

const SNAPSHOT = new URL('../../../docs/openapi.json', import.meta.url)

interface Operation {
  description: string
  requestBody: { description: string; content: Record<string, { schema: { $ref: string }; examples: Record<string, { value: unknown }> }> }
  responses: Record<string, unknown>
}
const operations = (document: OpenApiDocument) => document.paths['/api/user'] as unknown as Record<'get' | 'put' | 'post', Operation>
const schemaOf = (document: OpenApiDocument, id: string) => (document.components.schemas as Record<string, Record<string, unknown>>)[id]

describe('the OpenAPI document of /api/user', () => {
  it('is a valid OpenAPI 3.1 document, without warnings', async () => {
    // The parser dereferences what it is given: hand it a copy.
    const result = await validate(structuredClone(buildOpenApiDocument()) as unknown as Parameters<typeof validate>[0])
    expect(result.valid, result.valid ? '' : compileErrors(result)).toBe(true)
    expect(result.warnings).toEqual([])
    expect(buildOpenApiDocument().openapi).toBe('3.1.0')
  })

  it('is committed as docs/openapi.json, regenerated whenever a schema or an example changes', async () => {
    const committed = await readFile(SNAPSHOT, 'utf8').catch(() => '(missing)')
    expect(
      committed,
      'docs/openapi.json no longer matches the schemas in src-shared/user-api/. Regenerate it with\n' +
        '  npm run build && node bin/embed-console.js openapi --out docs/openapi.json\n' +
        'then review the diff and commit it.',
    ).toBe(openApiFileText(buildOpenApiDocument()))
  })

  it('takes its request and answer schemas from the zod schemas, field for field', () => {
    const document = buildOpenApiDocument()
    const fieldsOf = (id: string) => Object.keys(schemaOf(document, id)?.properties as object)
    expect(fieldsOf('GetOrCreateRequest')).toEqual(Object.keys(GetOrCreateRequestSchema.shape))
    expect(fieldsOf('UpdateRequest')).toEqual(Object.keys(UpdateRequestSchema.shape))
    expect(fieldsOf('RotateTokenRequest')).toEqual(Object.keys(RotateTokenRequestSchema.shape))
    expect(fieldsOf('UserGroup')).toEqual(Object.keys(UserGroupSchema.shape))
    expect(schemaOf(document, 'GetOrCreateRequest')).toMatchObject({ required: ['user_group_id'], additionalProperties: false })
    // Answers are loose, as the client reads them: a newer server may add fields.
    expect(schemaOf(document, 'UserGroup')).toMatchObject({ additionalProperties: {} })
    const ops = operations(document)
    expect(ops.get.requestBody.content['application/json']?.schema).toEqual({ $ref: '#/components/schemas/GetOrCreateRequest' })
    expect(ops.put.requestBody.content['application/json']?.schema).toEqual({ $ref: '#/components/schemas/UpdateRequest' })
    expect(ops.post.requestBody.content['application/json']?.schema).toEqual({ $ref: '#/components/schemas/RotateTokenRequest' })
  })

  it('shows request examples that the shared schemas accept, and response examples that fit their schemas', () => {
    const document = buildOpenApiDocument()
    const ajv = new Ajv2020({ strict: false, allErrors: true })
    ajv.addSchema(document, 'openapi.json')
    const zodSchema = { get: GetOrCreateRequestSchema, put: UpdateRequestSchema, post: RotateTokenRequestSchema }
    for (const method of ['get', 'put', 'post'] as const) {
      const content = operations(document)[method].requestBody.content['application/json']
      const validateRequest = ajv.compile({ $ref: `openapi.json${content?.schema.$ref}` })
      for (const [key, { value }] of Object.entries(content?.examples ?? {})) {
        expect(zodSchema[method].safeParse(value).success, `${method} request example ${key}`).toBe(true)
        expect(validateRequest(value), `${method} request example ${key}: ${JSON.stringify(validateRequest.errors)}`).toBe(true)
      }
    }
    // Each example whose body the schema accepts is shown as its operation's request example.
    for (const method of ['get', 'put', 'post'] as const) {
      const shown = Object.keys(operations(document)[method].requestBody.content['application/json']?.examples ?? {})
      const acceptable = API_EXAMPLES.filter(
        ({ shared, request }) =>
          !shared &&
          request.method.toLowerCase() === method &&
          'json' in request.body &&
          zodSchema[method].safeParse(request.body.json).success,
      )
      expect(shown, method).toEqual(acceptable.map((example) => example.key))
      expect(shown.length, method).toBeGreaterThan(0)
    }
  })

  it('documents every status the sandbox answers, with the API envelope on each failure', () => {
    const document = buildOpenApiDocument()
    const ops = operations(document)
    expect(Object.keys(ops.get.responses)).toEqual(['200', '400', '401', '413', '500'])
    expect(Object.keys(ops.put.responses)).toEqual(['200', '400', '401', '404', '413', '500'])
    expect(Object.keys(ops.post.responses)).toEqual(['200', '400', '401', '404', '413', '500'])
    const shared = document.components.responses as Record<string, { headers?: object; content: Record<string, { schema: unknown }> }>
    expect(Object.keys(shared).sort()).toEqual(['MethodNotAllowed', 'PayloadTooLarge', 'ServerError', 'Unauthorized'])
    for (const response of Object.values(shared))
      expect(response.content['application/json']?.schema).toEqual({ $ref: '#/components/schemas/ApiFailure' })
    expect(Object.keys(shared.Unauthorized?.headers ?? {})).toEqual(['WWW-Authenticate'])
    expect(Object.keys(shared.MethodNotAllowed?.headers ?? {})).toEqual(['Allow'])
    // Every status an example shows is documented where the example sits.
    const statuses = new Set(API_EXAMPLES.map((example) => example.response.status))
    expect([...statuses].sort()).toEqual([200, 400, 401, 404, 405, 413, 500])
  })

  it('says how to send the GET’s body, and how to authenticate', () => {
    const document = buildOpenApiDocument()
    const { get } = operations(document)
    for (const text of [get.description, get.requestBody.description]) {
      expect(text).toContain('unusual')
      expect(text).toContain('curl -X GET')
      expect(text).toContain('--data')
      expect(text).toContain('http.request')
      expect(text).toContain('fetch')
    }
    expect(document.security).toEqual([{ apiToken: [] }])
    expect((document.components.securitySchemes as Record<string, unknown>).apiToken).toMatchObject({
      type: 'apiKey',
      in: 'header',
      name: 'Authorization',
      description: expect.stringContaining('Token <API_TOKEN>'),
    })
  })

  it('reads as three endpoints in a Mintlify docs site, with the GET’s body and the Token key', async () => {
    // Mintlify's own converter from an OpenAPI operation to an endpoint page, as a docs site runs it.
    const document = buildOpenApiDocument({ serverUrl: 'https://api.example.com' }) as unknown as Parameters<
      typeof OpenApiToEndpointConverter.convert
    >[0]
    const dereferenced = await dereference(document)
    for (const method of ['get', 'put', 'post'] as const) {
      const endpoint = OpenApiToEndpointConverter.convert(dereferenced, '/api/user', method)
      expect(endpoint.servers).toEqual([{ url: 'https://api.example.com' }])
      expect(Object.keys(endpoint.request.body)).toEqual(['application/json'])
      expect(Object.keys(endpoint.request.body['application/json']?.examples ?? {}).length).toBeGreaterThan(0)
      expect(endpoint.request.security[0]?.parameters.header).toMatchObject({ Authorization: { type: 'apiKey' } })
    }
    const get = OpenApiToEndpointConverter.convert(dereferenced, '/api/user', 'get')
    expect(get.request.codeSamples?.map((sample) => sample.label)).toEqual(['curl', 'Node (http.request)', 'Python (requests)'])
    for (const method of ['put', 'post'] as const) {
      const samples = OpenApiToEndpointConverter.convert(dereferenced, '/api/user', method).request.codeSamples
      expect(
        samples?.map((sample) => sample.label),
        method,
      ).toEqual(['curl', 'JavaScript (fetch)', 'Python (requests)'])
    }
    expect(get.request.codeSamples?.[0]?.source).toContain("curl -X GET 'https://api.example.com/api/user'")
  })

  it('attaches the 405 to the path: DELETE and PATCH answer it, kept out of a docs site’s navigation; OPTIONS is the preflight', () => {
    const path = buildOpenApiDocument().paths['/api/user'] as Record<
      string,
      { responses: Record<string, unknown>; security?: unknown; 'x-hidden'?: boolean }
    >
    expect(Object.keys(path)).toEqual(['description', 'get', 'put', 'post', 'options', 'delete', 'patch'])
    for (const method of ['delete', 'patch']) {
      expect(path[method]?.responses, method).toEqual({ 405: { $ref: '#/components/responses/MethodNotAllowed' } })
      expect(path[method], method).toMatchObject({ security: [], 'x-hidden': true })
    }
    expect(path.options?.responses['204']).toMatchObject({
      headers: { 'Access-Control-Allow-Origin': { schema: { const: '*' } }, Allow: { schema: { const: 'GET, PUT, POST, OPTIONS' } } },
    })
    expect(buildOpenApiDocument().components.responses).toMatchObject({
      MethodNotAllowed: { headers: { Allow: { schema: { const: 'GET, PUT, POST, OPTIONS' } } } },
    })
  })

  it('has code samples for PUT and POST as for GET, that read the tokens from the environment and never hold one', () => {
    const path = buildOpenApiDocument({ serverUrl: 'https://api.example.com' }).paths['/api/user'] as Record<
      string,
      { 'x-codeSamples': Array<{ lang: string; label: string; source: string }> }
    >
    expect(path.put?.['x-codeSamples'].map((sample) => sample.lang)).toEqual(['bash', 'javascript', 'python'])
    expect(path.put?.['x-codeSamples'][0]?.source).toContain("curl -X PUT 'https://api.example.com/api/user'")
    expect(path.put?.['x-codeSamples'][1]?.source).toContain("method: 'PUT'")
    const rotation = path.post?.['x-codeSamples'].map((sample) => sample.source).join('\n') ?? ''
    expect(rotation).toContain('CURRENT_GROUP_TOKEN')
    for (const example of API_EXAMPLES) {
      const token = (example.response.body as { user_group?: { token?: string } }).user_group?.token
      if (token) expect(rotation).not.toContain(token)
    }
  })

  it('names its license and a contact: the generator by default, the API’s support when given', () => {
    expect(buildOpenApiDocument().info).toMatchObject({
      license: { name: 'MIT', identifier: 'MIT' },
      contact: { name: 'Embed Console, which generated this document' },
    })
    expect(buildOpenApiDocument({ contact: { email: 'support@example.com' } }).info.contact).toEqual({
      name: 'API support',
      email: 'support@example.com',
    })
  })

  it('links the token of every answer to the current_token of a rotation', () => {
    const ops = operations(buildOpenApiDocument()) as unknown as Record<
      'get' | 'put' | 'post',
      { responses: Record<string, { links?: unknown }> }
    >
    for (const method of ['get', 'put', 'post'] as const) {
      expect(ops[method].responses['200']?.links, method).toEqual({
        rotateToken: {
          operationId: 'rotateUserGroupToken',
          description: 'The `user_group.token` of this answer is the `current_token` that rotates it.',
          requestBody: { current_token: '{$response.body#/user_group/token}' },
        },
      })
    }
    expect(ops.post.responses['200']).toBeDefined()
  })

  it('points servers[0] at a given base URL, or at a {base_url} variable', () => {
    expect(buildOpenApiDocument({ serverUrl: 'https://api.example.com/tenant/v1/' }).servers).toEqual([
      { url: 'https://api.example.com/tenant/v1' },
    ])
    expect(buildOpenApiDocument().servers[0]).toMatchObject({
      url: '{base_url}',
      variables: { base_url: { default: 'http://127.0.0.1:8765' } },
    })
  })
})
