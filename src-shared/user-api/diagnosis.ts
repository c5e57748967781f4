import { z } from 'zod'

/*
 * "Diagnose connection" and `embed-console doctor`: how a call to /api/user travels (which proxy,
 * which certificate authorities, which TLS version) and, step by step, where it fails.
 */

/** The steps of a connection, in the order a call takes them. */
export const DiagnosisStepNameSchema = z.enum(['dns', 'tcp', 'proxy', 'tls', 'http'])
export type DiagnosisStepName = z.infer<typeof DiagnosisStepNameSchema>

export const DIAGNOSIS_STEP_LABELS: Record<DiagnosisStepName, string> = {
  dns: 'DNS',
  tcp: 'TCP',
  proxy: 'Proxy CONNECT',
  tls: 'TLS',
  http: 'HTTP',
}

export const DiagnosisStepSchema = z.object({
  step: DiagnosisStepNameSchema,
  /** `skipped`: the call does not take this step (no proxy, plain http), or an earlier one failed. */
  outcome: z.enum(['ok', 'failed', 'skipped']),
  message: z.string(),
  durationMs: z.number().optional(),
})
export type DiagnosisStep = z.infer<typeof DiagnosisStepSchema>

export const CertificateSummarySchema = z.object({
  subject: z.string(),
  issuer: z.string(),
  validTo: z.string(),
  /** The names it is valid for (`DNS:api.example.com, …`), when it lists any. */
  altNames: z.string().optional(),
})
export type CertificateSummary = z.infer<typeof CertificateSummarySchema>

export const DiagnosisSchema = z.object({
  /** `{base_url}/api/user`. */
  endpoint: z.string(),
  proxy: z.object({
    /** The proxy a call goes through, without credentials; null: straight to the server. */
    url: z.string().nullable(),
    /** Where that choice comes from: the profile, or the variable that named it. */
    source: z.string().nullable(),
    /** Why, in a sentence: a NO_PROXY entry that matched, loopback, no variable set… */
    reason: z.string(),
  }),
  /** Where the certificate authorities that verify the server come from, a sentence each. */
  trust: z.array(z.string()),
  /** The TLS session the check opened (https only). */
  tls: z
    .object({
      version: z.string(),
      cipher: z.string(),
      certificate: CertificateSummarySchema,
    })
    .optional(),
  steps: z.array(DiagnosisStepSchema),
  ok: z.boolean(),
  failedAt: DiagnosisStepNameSchema.optional(),
  /** One sentence: "The connection works." or what failed and what to do. */
  summary: z.string(),
})
export type Diagnosis = z.infer<typeof DiagnosisSchema>
