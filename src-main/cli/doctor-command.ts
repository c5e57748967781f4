import { parseArgs } from 'node:util'
import { AppErrorException } from '../../src-shared/ipc/result'
import { BaseUrlSchema } from '../../src-shared/profiles/schemas'
import { type Diagnosis, DIAGNOSIS_STEP_LABELS } from '../../src-shared/user-api/diagnosis'
import { defaultDataDir } from '../data-dir'
import { ENVIRONMENT_NETWORK } from '../user-api/client'
import { diagnoseConnection, type DiagnosisTarget } from '../user-api/diagnose-connection'
import { type CliIo, type Command, parseTimeoutSeconds, printJson, profileNamed, TOKEN_ENV, UsageError } from './usage'

const USAGE = [
  'embed-console doctor (--profile NAME | --base-url URL) [--timeout SECONDS] [--data-dir DIR] [--json]',
  '',
  '  --profile NAME     a saved profile (by name or id): its proxy, CA bundle and API token',
  `  --base-url URL     as \`groups --base-url\` calls it: the proxy variables, and the API token in ${TOKEN_ENV} if set`,
  '  --timeout SECONDS  per step (default: the profile’s, or 15)',
  '  --json             the diagnosis as {"ok": true, "value": {…}} on stdout',
].join('\n')

const OUTCOME_WORDS = { ok: 'ok', failed: 'FAILED', skipped: '-' } as const

/** The diagnosis as lines a terminal shows: the route first, then each step. */
export function diagnosisText(diagnosis: Diagnosis, subject: string): string {
  const labelWidth = Math.max(...Object.values(DIAGNOSIS_STEP_LABELS).map((label) => label.length))
  const indent = ' '.repeat(8)
  return [
    `Diagnosis of ${diagnosis.endpoint} (${subject})`,
    '',
    `Proxy:  ${diagnosis.proxy.url ? `${diagnosis.proxy.url} (from ${diagnosis.proxy.source}). ` : 'none. '}${diagnosis.proxy.reason}`,
    ...diagnosis.trust.map((source, index) => `${index === 0 ? 'Trust:  ' : indent}${source}`),
    ...(diagnosis.tls
      ? [
          `TLS:    ${diagnosis.tls.version}, ${diagnosis.tls.cipher}; certificate “${diagnosis.tls.certificate.subject}”, issued by “${diagnosis.tls.certificate.issuer}”, valid until ${diagnosis.tls.certificate.validTo.slice(0, 10)}`,
        ]
      : []),
    '',
    ...diagnosis.steps.map(
      (step) =>
        `  ${OUTCOME_WORDS[step.outcome].padEnd(6)}  ${DIAGNOSIS_STEP_LABELS[step.step].padEnd(labelWidth)}  ${step.message}${step.durationMs === undefined ? '' : ` (${Math.round(step.durationMs)} ms)`}`,
    ),
    '',
    diagnosis.summary,
  ].join('\n')
}

async function profileTarget(profileName: string, dataDir: string): Promise<{ target: DiagnosisTarget; subject: string }> {
  const { createAppServices } = await import('../app-services')
  const services = await createAppServices({ dataDir, transport: 'browser', sandbox: false })
  try {
    const profile = profileNamed(services.profiles, profileName)
    return { target: await services.profiles.connectionForDiagnosis(profile.id), subject: `profile “${profile.name}”` }
  } finally {
    await services.close()
  }
}

async function runDoctor(argv: string[], io: CliIo): Promise<number> {
  const { values } = parseArgs({
    args: argv,
    options: {
      profile: { type: 'string' },
      'base-url': { type: 'string' },
      timeout: { type: 'string' },
      'data-dir': { type: 'string' },
      json: { type: 'boolean', default: false },
    },
    strict: true,
  })
  if (Boolean(values.profile) === Boolean(values['base-url'])) throw new UsageError('Give either --profile or --base-url.')
  const timeoutMs = parseTimeoutSeconds(values.timeout)
  let target: DiagnosisTarget
  let subject: string
  if (values['base-url'] !== undefined) {
    const baseUrl = BaseUrlSchema.safeParse(values['base-url'])
    if (!baseUrl.success) throw new UsageError(`--base-url: ${baseUrl.error.issues[0]?.message ?? 'not an http(s) address.'}`)
    target = { baseUrl: baseUrl.data, apiToken: io.env[TOKEN_ENV] || null, timeoutMs: 15_000, network: ENVIRONMENT_NETWORK, env: io.env }
    subject = io.env[TOKEN_ENV]
      ? `--base-url, with the API token in ${TOKEN_ENV}`
      : `--base-url; ${TOKEN_ENV} is not set, so the API is not asked`
  } else {
    ;({ target, subject } = await profileTarget(values.profile!, values['data-dir'] ?? defaultDataDir(io.env)))
  }
  if (timeoutMs) target = { ...target, timeoutMs }

  let diagnosis: Diagnosis
  try {
    diagnosis = await diagnoseConnection(target)
  } catch (error) {
    if (!(error instanceof AppErrorException)) throw error
    if (values.json) printJson(io, { ok: false, error: error.toAppError() })
    else io.stderr(error.message)
    return error.code === 'invalid_input' ? 2 : 1
  }
  if (values.json) printJson(io, { ok: true, value: diagnosis })
  else io.stdout(diagnosisText(diagnosis, subject))
  return diagnosis.ok ? 0 : 1
}

export const doctorCommand: Command = {
  name: 'doctor',
  usage: USAGE,
  examples: [
    'embed-console doctor --profile Production',
    `HTTPS_PROXY=http://proxy.example.com:3128 NODE_EXTRA_CA_CERTS=corp-ca.pem ${TOKEN_ENV}=… embed-console doctor --base-url https://api.example.com`,
  ],
  exitCodes: [
    [0, 'every step passed: the call reaches the API (or, without a token, its server)'],
    [1, 'a step failed: the output says which (DNS, TCP, proxy CONNECT, TLS, HTTP) and why'],
    [2, 'bad usage'],
  ],
  run: runDoctor,
}
