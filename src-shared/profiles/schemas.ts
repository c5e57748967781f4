import { z } from 'zod'
import { isLoopbackHostname } from '../net/loopback'
import { EnvironmentTagSchema } from '../user-api/schemas'
import { BaseUrlSchema } from './base-url'

/*
 * Connection profiles as both sides see them. Each field is written once here and every shape
 * (stored profile, create draft, edit changes, renderer view, export file) is built from these.
 * The API token appears only in the write-only draft and changes: no schema that main sends back
 * has a place for it.
 */

export const ProfileIdSchema = z.string().regex(/^[A-Za-z0-9_-]{1,64}$/, 'A profile id is 1 to 64 letters, digits, "-" or "_".')

export const PROFILE_NAME_MAX_LENGTH = 80

export const ProfileNameSchema = z
  .string()
  .trim()
  .min(1, 'Give the profile a name.')
  .max(PROFILE_NAME_MAX_LENGTH, `A profile name has at most ${PROFILE_NAME_MAX_LENGTH} characters.`)

export const DEFAULT_TIMEOUT_SECONDS = 15

export const TimeoutSecondsSchema = z
  .number()
  .int('The timeout is a whole number of seconds.')
  .min(1, 'The timeout is at least 1 second.')
  .max(300, 'The timeout is at most 300 seconds.')

/** Free text the operator chooses, such as "Production" or "Staging"; empty means no label. */
export const EnvironmentLabelSchema = z.string().trim().max(40, 'An environment label has at most 40 characters.')

/**
 * What a profile's API is, for the safety cues: `customer` is production (the header is tinted
 * and the first write of a session is confirmed), `testing` a test environment; `unspecified`
 * says nothing (profiles made before the kind existed, and the built-in sandbox).
 */
export const EnvironmentKindSchema = z.enum(['customer', 'testing', 'unspecified'])
export type EnvironmentKind = z.infer<typeof EnvironmentKindSchema>

// The base URL's rule lives in a module of its own: the API client and the CLI's --base-url load
// it without every profile schema (zod builds each one when its module loads).
export { BaseUrlSchema } from './base-url'

/**
 * Whether two base URLs reach the same server: the same scheme, host and port (default ports
 * spelled or not). A profile's secrets belong to its server, so an edit that changes any of
 * the three drops them (see ProfileChangesSchema).
 */
export function sameOrigin(a: string, b: string): boolean {
  return URL.canParse(a) && URL.canParse(b) && new URL(a).origin === new URL(b).origin
}

/**
 * A sentence for the profile form when plain http leaves this computer, or undefined. Loopback
 * (net/loopback.ts) is exempt: the traffic never reaches a network.
 */
export function baseUrlWarning(baseUrl: string): string | undefined {
  if (!URL.canParse(baseUrl)) return undefined
  const url = new URL(baseUrl)
  if (url.protocol !== 'http:' || isLoopbackHostname(url.hostname)) return undefined
  return 'This address uses plain http to another computer: the API token would travel unencrypted. Use https:// unless you trust every network in between.'
}

/**
 * How a profile reaches its server: `environment` as the HTTPS_PROXY, HTTP_PROXY and NO_PROXY
 * variables say (curl's rules), `direct` with no proxy whatever they say, `custom` through the
 * profile's own proxy. Loopback addresses (the local sandbox) are never proxied.
 */
export const ProxyModeSchema = z.enum(['environment', 'direct', 'custom'])
export type ProxyMode = z.infer<typeof ProxyModeSchema>

/**
 * Why a text is not a proxy address, or undefined: http(s), a host and a port, nothing more. The
 * messages never quote the address: a pasted one may carry a password.
 */
export function proxyUrlProblem(text: string): string | undefined {
  if (!URL.canParse(text)) return 'The proxy is not a full address: write it like http://proxy.example.com:3128.'
  const url = new URL(text)
  if (url.protocol !== 'http:' && url.protocol !== 'https:') {
    return `A proxy address starts with http:// (or https://); "${url.protocol}" proxies are not supported.`
  }
  if (url.username || url.password) {
    return 'Leave the user name and password out of the proxy address: they have fields of their own, and the password is kept like a token.'
  }
  if (url.pathname.replace(/\/+$/, '') !== '' || url.search || url.hash)
    return 'A proxy address is a host and a port, without a path, query or fragment.'
  return undefined
}

/** The profile's own proxy; empty when it has none. */
export const ProxyUrlSchema = z
  .string()
  .trim()
  .max(2048, 'The proxy address has at most 2048 characters.')
  .overwrite((url) => url.replace(/\/+$/, ''))
  .check((ctx) => {
    const problem = ctx.value === '' ? undefined : proxyUrlProblem(ctx.value)
    if (problem) ctx.issues.push({ code: 'custom', message: problem, input: ctx.value })
  })

/** Basic authentication puts user:password in one header, so the user name cannot hold a colon. */
export const ProxyUsernameSchema = z
  .string()
  .trim()
  .max(256, 'A proxy user name has at most 256 characters.')
  .regex(/^[^:\p{Cc}]*$/u, 'A proxy user name cannot hold a colon or control characters.')

export const ProxyPasswordSchema = z
  .string()
  .min(1, 'The proxy password is empty.')
  .max(1024, 'A proxy password has at most 1024 characters.')
  .regex(/^[^\p{Cc}]+$/u, 'A proxy password cannot hold line breaks or other control characters.')

/**
 * A PEM file of certificate authorities to trust besides the runtime's (a company's TLS
 * inspection CA): a full path, read by main when the profile is saved and at every call. Empty
 * when the profile has none.
 */
export const CaBundlePathSchema = z
  .string()
  .trim()
  .max(4096, 'The CA bundle path has at most 4096 characters.')
  .refine(
    (path) => path === '' || /^(\/|[A-Za-z]:[\\/]|\\\\)/.test(path),
    'Give the full path of the CA bundle file, from / (or a drive letter).',
  )

/** The one rule across the proxy fields: the profile's own proxy needs its address. */
export function proxySettingsProblem(settings: { proxyMode?: ProxyMode; proxyUrl?: string }): string | undefined {
  return settings.proxyMode === 'custom' && !settings.proxyUrl ? 'Give the proxy’s address, or choose another way to connect.' : undefined
}

/** Visible ASCII only: the token goes into an `Authorization` header as it is. */
export const ApiTokenSchema = z
  .string()
  .trim()
  .min(1, 'The API token is empty.')
  .max(4096, 'The API token has at most 4096 characters.')
  .regex(/^[\x21-\x7e]+$/, 'The API token can only hold visible ASCII characters, without spaces.')

/**
 * Where a token is kept: `keychain` encrypted with the system keychain (Electron safeStorage),
 * `session` in memory until the app quits, `file` in an owner-only (0600) file, unencrypted.
 */
export const TokenStorageSchema = z.enum(['keychain', 'session', 'file'])
export type TokenStorage = z.infer<typeof TokenStorageSchema>

/**
 * The one rule for the characters of a token that may be shown (in the vault's `last4`, the
 * catalog, a masked token on screen): the last 4, and none of a token shorter than 12.
 */
export function visibleTail(secret: string): string | undefined {
  const characters = [...secret]
  if (characters.length < 12) return undefined
  // By characters, not UTF-16 units: half of an emoji would be stored and shown as "?". A tail
  // that is not 4 plain units long (astral characters) is not shown at all.
  const tail = characters.slice(-4).join('')
  return tail.length === 4 ? tail : undefined
}

/** How a token the screen never shows is described: by its visible tail, or as too short to show any. */
export const tokenTailHint = (last4: string | undefined): string => (last4 ? `ends in …${last4}` : 'too short to show any of it')

/** A token as the screen shows it before it is revealed: dots, then its visible tail. */
export const maskedToken = (secret: string): string => `${'•'.repeat(12)}${visibleTail(secret) ?? ''}`

/** What the renderer may know about a token: whether it is set, its tail, where it lives. */
export const TokenStateSchema = z.object({
  set: z.boolean(),
  last4: z.string().max(4).optional(),
  storage: z.enum([...TokenStorageSchema.options, 'none']),
})
export type TokenState = z.infer<typeof TokenStateSchema>

/** A profile as main keeps it (built-in ones are supplied at startup and never written). */
export const ProfileSchema = z.object({
  id: ProfileIdSchema,
  name: ProfileNameSchema,
  baseUrl: BaseUrlSchema,
  timeoutSeconds: TimeoutSecondsSchema.default(DEFAULT_TIMEOUT_SECONDS),
  environmentLabel: EnvironmentLabelSchema.default(''),
  environmentKind: EnvironmentKindSchema.default('unspecified'),
  proxyMode: ProxyModeSchema.default('environment'),
  proxyUrl: ProxyUrlSchema.default(''),
  proxyUsername: ProxyUsernameSchema.default(''),
  caBundlePath: CaBundlePathSchema.default(''),
  serverEnvironment: EnvironmentTagSchema.nullable()
    .optional()
    .describe('Where the server put the last group returned through this profile (api_environment_tag); it wins over the kind'),
  builtin: z.boolean().optional(),
  createdAt: z.iso.datetime(),
  updatedAt: z.iso.datetime(),
})
export type Profile = z.infer<typeof ProfileSchema>

const tokenStorageNeedsToken = {
  message: 'Choose where to keep a token only when you enter one (an API token or a proxy password).',
  path: ['tokenStorage'],
}

const customProxyNeedsUrl = {
  message: proxySettingsProblem({ proxyMode: 'custom' })!,
  path: ['proxyUrl'],
}

/**
 * A new profile from the form. `apiToken` and `proxyPassword` are write-only: nothing ever sends
 * them back. The proxy password is kept where the API token is (`tokenStorage`).
 */
export const ProfileDraftSchema = z
  .object({
    name: ProfileNameSchema,
    baseUrl: BaseUrlSchema,
    timeoutSeconds: TimeoutSecondsSchema.default(DEFAULT_TIMEOUT_SECONDS),
    environmentLabel: EnvironmentLabelSchema.default(''),
    environmentKind: EnvironmentKindSchema.default('unspecified'),
    proxyMode: ProxyModeSchema.default('environment'),
    proxyUrl: ProxyUrlSchema.default(''),
    proxyUsername: ProxyUsernameSchema.default(''),
    proxyPassword: ProxyPasswordSchema.optional(),
    caBundlePath: CaBundlePathSchema.default(''),
    apiToken: ApiTokenSchema.optional(),
    tokenStorage: TokenStorageSchema.optional(),
  })
  .strict()
  .refine(
    (draft) => draft.tokenStorage === undefined || draft.apiToken !== undefined || draft.proxyPassword !== undefined,
    tokenStorageNeedsToken,
  )
  .refine((draft) => proxySettingsProblem(draft) === undefined, customProxyNeedsUrl)
export type ProfileDraft = z.output<typeof ProfileDraftSchema>

/**
 * An edit: every field left out keeps its value, the token included. So an empty token field in
 * the form is simply not sent; removing the token takes the explicit `clearToken: true`, never a
 * magic empty string. `tokenStorage` alone moves the current token to another place.
 *
 * One exception: a `baseUrl` on another scheme, host or port (see `sameOrigin`) removes the API
 * token and the group tokens kept for the profile, unless `apiToken` gives the new server's token
 * in the same change. Tokens go only to the server they were issued for, never to a new address
 * typed over the old one. The proxy password stays: it belongs to the network, not the server.
 */
export const ProfileChangesSchema = z
  .object({
    name: ProfileNameSchema.optional(),
    baseUrl: BaseUrlSchema.optional(),
    timeoutSeconds: TimeoutSecondsSchema.optional(),
    environmentLabel: EnvironmentLabelSchema.optional(),
    environmentKind: EnvironmentKindSchema.optional(),
    proxyMode: ProxyModeSchema.optional(),
    proxyUrl: ProxyUrlSchema.optional(),
    proxyUsername: ProxyUsernameSchema.optional(),
    proxyPassword: ProxyPasswordSchema.optional(),
    clearProxyPassword: z.literal(true).optional(),
    caBundlePath: CaBundlePathSchema.optional(),
    apiToken: ApiTokenSchema.optional(),
    tokenStorage: TokenStorageSchema.optional(),
    clearToken: z.literal(true).optional(),
  })
  .strict()
  .refine((changes) => !changes.clearToken || (changes.apiToken === undefined && changes.tokenStorage === undefined), {
    message: 'Either clear the API token or give a new one, not both.',
    path: ['clearToken'],
  })
  .refine((changes) => !changes.clearProxyPassword || changes.proxyPassword === undefined, {
    message: 'Either clear the proxy password or give a new one, not both.',
    path: ['clearProxyPassword'],
  })
  .refine((changes) => changes.proxyUrl === undefined || proxySettingsProblem(changes) === undefined, customProxyNeedsUrl)
export type ProfileChanges = z.output<typeof ProfileChangesSchema>

/**
 * What the renderer sees of a profile: everything but its secrets, which it only sees described
 * (the API token) or counted (whether a proxy password is kept).
 */
export const ProfileViewSchema = ProfileSchema.extend({ token: TokenStateSchema, proxyPasswordSet: z.boolean().default(false) })
export type ProfileView = z.infer<typeof ProfileViewSchema>

export const VaultStatusSchema = z.object({
  /** True when tokens can be encrypted at rest here (the `keychain` storage is offered). */
  encryptionAvailable: z.boolean(),
  /** The keychain behind safeStorage (`gnome_libsecret`, `kwallet6`, …), `none` when absent. */
  backend: z.string(),
  /** A plain sentence for the profile form. */
  message: z.string(),
})
export type VaultStatus = z.infer<typeof VaultStatusSchema>

/**
 * The settings a profile carries to another machine: no id, no dates, never a token. The proxy
 * and CA bundle go too (a team shares its network); the proxy's user name and password do not.
 */
export const ExportedProfileSchema = ProfileSchema.pick({
  name: true,
  baseUrl: true,
  timeoutSeconds: true,
  environmentLabel: true,
  environmentKind: true,
  proxyMode: true,
  proxyUrl: true,
  caBundlePath: true,
})
export type ExportedProfile = z.infer<typeof ExportedProfileSchema>

/**
 * The export file. Unknown keys in an imported file are dropped, so a hand-added token is never
 * imported.
 */
export const ProfilesExportSchema = z.object({
  format: z.literal('embed-console-profiles'),
  version: z.literal(1),
  exportedAt: z.iso.datetime().optional(),
  profiles: z.array(ExportedProfileSchema).max(1000, 'An export file holds at most 1000 profiles.'),
})
export type ProfilesExport = z.infer<typeof ProfilesExportSchema>
