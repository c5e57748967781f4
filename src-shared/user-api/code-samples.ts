import { type GetOrCreateRequest, userApiUrl } from './schemas'

/*
 * The same /api/user call as code to paste into a terminal, a script or a support ticket: curl,
 * HTTPie, JavaScript and Python requests. Every sample runs as printed once the environment
 * variables it names are set: the API token and (for a rotation) the group's current token are
 * never written into a sample, only read from the environment.
 */

export const API_TOKEN_VARIABLE = 'EMBED_CONSOLE_TOKEN'
export const CURRENT_TOKEN_VARIABLE = 'CURRENT_GROUP_TOKEN'

export const SAMPLE_LANGUAGES = [
  { id: 'curl', label: 'curl' },
  { id: 'httpie', label: 'HTTPie' },
  { id: 'javascript', label: 'JavaScript' },
  { id: 'python', label: 'Python' },
] as const
export type SampleLanguage = (typeof SAMPLE_LANGUAGES)[number]['id']

/** A call to render: get-or-create and update carry their body; a rotation reads its token from the environment. */
export type SampleCall = { operation: 'getOrCreate' | 'update'; request: GetOrCreateRequest } | { operation: 'rotateToken' }

export interface CodeSample {
  language: SampleLanguage
  code: string
  /** The environment variables to set before running it, in order. */
  variables: string[]
  /** What to know before running it, when there is something. */
  note?: string
}

const METHODS = { getOrCreate: 'GET', update: 'PUT', rotateToken: 'POST' } as const

/** Single-quotes a word for a POSIX shell. */
const shellQuote = (text: string) => `'${text.replaceAll("'", `'\\''`)}'`

/** The body's JSON with the rotation's token left to the shell: double quotes, so $VAR expands. */
const ROTATION_BODY_FOR_SHELL = `"{\\"current_token\\": \\"$${CURRENT_TOKEN_VARIABLE}\\"}"`

/**
 * The call as a curl command, for support tickets and scripts. The API token is never in it:
 * the command reads `$EMBED_CONSOLE_TOKEN`, which the operator sets in their own shell.
 */
export function buildCurlCommand(operation: keyof typeof METHODS, baseUrl: string, body: unknown): string {
  return curlCommand(METHODS[operation], baseUrl, shellQuote(JSON.stringify(body)))
}

const curlCommand = (method: string, baseUrl: string, data: string) =>
  [
    `curl -X ${method} ${shellQuote(userApiUrl(baseUrl))}`,
    `  -H 'Content-Type: application/json'`,
    `  -H "Authorization: Token $${API_TOKEN_VARIABLE}"`,
    `  --data ${data}`,
  ].join(' \\\n')

function httpie(call: SampleCall, baseUrl: string): string {
  const head = `http --check-status ${METHODS[call.operation]} ${shellQuote(userApiUrl(baseUrl))} "Authorization:Token $${API_TOKEN_VARIABLE}"`
  // --ignore-stdin: in a script, stdin is not a terminal and HTTPie would take it for the body.
  if (call.operation === 'rotateToken')
    return `${head.replace('http ', 'http --ignore-stdin ')} \\\n  current_token="$${CURRENT_TOKEN_VARIABLE}"`
  // The body from standard input: HTTPie sends it as it is, as JSON, whatever the method.
  return `printf '%s' ${shellQuote(JSON.stringify(call.request))} | \\\n  ${head}`
}

/** A GET with a body in Node: `http.request` sends one, which `fetch` refuses (also the OpenAPI document's sample). */
export function buildNodeGetSample(baseUrl: string, body: unknown): string {
  const url = userApiUrl(baseUrl)
  return `// fetch() cannot send a body with GET, and this API reads one, so this uses Node's http module.
import { request } from '${url.startsWith('https:') ? 'node:https' : 'node:http'}'

const body = JSON.stringify(${JSON.stringify(body)})
const req = request(${JSON.stringify(url)}, {
  method: 'GET',
  headers: {
    Authorization: \`Token \${process.env.${API_TOKEN_VARIABLE}}\`,
    'Content-Type': 'application/json',
    'Content-Length': Buffer.byteLength(body),
  },
}, (res) => {
  let text = ''
  res.setEncoding('utf8')
  res.on('data', (chunk) => (text += chunk))
  res.on('end', () => console.log(res.statusCode, text))
})
req.on('error', (error) => console.error(error.message))
req.end(body)
`
}

function fetchSample(method: 'PUT' | 'POST', url: string, body: string): string {
  return `const response = await fetch(${JSON.stringify(url)}, {
  method: '${method}',
  headers: {
    Authorization: \`Token \${process.env.${API_TOKEN_VARIABLE}}\`,
    'Content-Type': 'application/json',
  },
  body: JSON.stringify(${body}),
})
console.log(response.status, await response.text())
`
}

function javascript(call: SampleCall, baseUrl: string): string {
  const url = userApiUrl(baseUrl)
  if (call.operation === 'getOrCreate') return buildNodeGetSample(baseUrl, call.request)
  if (call.operation === 'update') return fetchSample('PUT', url, JSON.stringify(call.request))
  return fetchSample('POST', url, `{ current_token: process.env.${CURRENT_TOKEN_VARIABLE} }`)
}

/** A JSON value as a Python literal: JSON's string escapes are Python's too; true, false, null are not. */
function pythonLiteral(value: unknown, indent = ''): string {
  if (value === null) return 'None'
  if (value === true) return 'True'
  if (value === false) return 'False'
  if (typeof value !== 'object') return JSON.stringify(value)
  const inner = `${indent}    `
  if (Array.isArray(value)) {
    return value.length === 0 ? '[]' : `[\n${value.map((item) => `${inner}${pythonLiteral(item, inner)},`).join('\n')}\n${indent}]`
  }
  const entries = Object.entries(value)
  if (entries.length === 0) return '{}'
  return `{\n${entries.map(([key, item]) => `${inner}${JSON.stringify(key)}: ${pythonLiteral(item, inner)},`).join('\n')}\n${indent}}`
}

function python(call: SampleCall, baseUrl: string): string {
  const body =
    call.operation === 'rotateToken' ? `{"current_token": os.environ["${CURRENT_TOKEN_VARIABLE}"]}` : pythonLiteral(call.request, '    ')
  return `import os

import requests

response = requests.request(
    "${METHODS[call.operation]}",
    ${JSON.stringify(userApiUrl(baseUrl))},
    headers={"Authorization": f"Token {os.environ['${API_TOKEN_VARIABLE}']}"},
    json=${body},
    timeout=30,
)
print(response.status_code, response.text)
`
}

const NOTES: Partial<Record<SampleLanguage, Partial<Record<SampleCall['operation'], string>>>> = {
  javascript: {
    getOrCreate:
      'fetch() cannot send a body with GET, and get-or-create needs one: this sample uses Node’s http module (Node 18 or newer, saved as a .mjs file).',
    update: 'Runs in Node 18 or newer, saved as a .mjs file.',
    rotateToken: 'Runs in Node 18 or newer, saved as a .mjs file.',
  },
  curl: { rotateToken: 'The token goes inside the JSON as it is, so it must hold no " or \\ (group tokens do not).' },
  python: {
    getOrCreate: 'Needs the requests package (pip install requests).',
    update: 'Needs the requests package (pip install requests).',
    rotateToken: 'Needs the requests package (pip install requests).',
  },
  httpie: { getOrCreate: 'HTTPie sends the body from standard input, with GET too.' },
}

/** The call in one language, with the variables to set before running it. */
export function buildCodeSample(language: SampleLanguage, baseUrl: string, call: SampleCall): CodeSample {
  const code =
    language === 'curl'
      ? call.operation === 'rotateToken'
        ? curlCommand('POST', baseUrl, ROTATION_BODY_FOR_SHELL)
        : buildCurlCommand(call.operation, baseUrl, call.request)
      : language === 'httpie'
        ? httpie(call, baseUrl)
        : language === 'javascript'
          ? javascript(call, baseUrl)
          : python(call, baseUrl)
  const note = NOTES[language]?.[call.operation]
  return {
    language,
    code,
    variables: call.operation === 'rotateToken' ? [API_TOKEN_VARIABLE, CURRENT_TOKEN_VARIABLE] : [API_TOKEN_VARIABLE],
    ...(note ? { note } : {}),
  }
}

/** "EMBED_CONSOLE_TOKEN and CURRENT_GROUP_TOKEN" */
export const variableList = (variables: readonly string[]) =>
  variables.length <= 1 ? (variables[0] ?? '') : `${variables.slice(0, -1).join(', ')} and ${variables.at(-1)}`
