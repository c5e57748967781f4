import {
  type EnvironmentKind,
  type ProfileChanges,
  ProfileChangesSchema,
  type ProfileDraft,
  ProfileDraftSchema,
  type ProfileView,
  type ProxyMode,
  sameOrigin,
  type TokenStorage,
  type VaultStatus,
} from '../../../src-shared/profiles/schemas'

export type ProfileFormSubmit = { kind: 'create'; draft: ProfileDraft } | { kind: 'update'; id: string; changes: ProfileChanges }

/** The profile form as typed: its text as strings, its choices, and the two "remove" boxes. */
export interface ProfileFormValues {
  name: string
  baseUrl: string
  environmentLabel: string
  environmentKind: EnvironmentKind
  /** As typed: read as a number when the form is read. */
  timeoutSeconds: string
  /** Write-only: starts empty, and an empty field keeps the saved token. */
  apiToken: string
  clearToken: boolean
  proxyMode: ProxyMode
  proxyUrl: string
  proxyUsername: string
  /** Write-only, like the API token. */
  proxyPassword: string
  clearProxyPassword: boolean
  caBundlePath: string
  tokenStorage: TokenStorage
}

/** Where a token or proxy password can be kept on this machine: the keychain first, where it encrypts. */
export const storagesFor = (vault: VaultStatus): TokenStorage[] =>
  vault.encryptionAvailable ? ['keychain', 'session', 'file'] : ['session', 'file']

/** A new profile's form, or the profile being edited's, its secrets left empty. */
export function initialValues(editing: ProfileView | null, storages: readonly TokenStorage[]): ProfileFormValues {
  return {
    name: editing?.name ?? '',
    baseUrl: editing?.baseUrl ?? 'https://',
    environmentLabel: editing?.environmentLabel ?? '',
    // A new profile is taken for production until said otherwise: the cost is one question a session.
    environmentKind: editing?.environmentKind ?? 'customer',
    timeoutSeconds: String(editing?.timeoutSeconds ?? 15),
    apiToken: '',
    clearToken: false,
    proxyMode: editing?.proxyMode ?? 'environment',
    proxyUrl: editing?.proxyUrl ?? '',
    proxyUsername: editing?.proxyUsername ?? '',
    proxyPassword: '',
    clearProxyPassword: false,
    caBundlePath: editing?.caBundlePath ?? '',
    tokenStorage:
      editing && editing.token.storage !== 'none' && storages.includes(editing.token.storage) ? editing.token.storage : storages[0]!,
  }
}

/** The form read against the schemas main applies: what it would send, and what is wrong with it. */
export interface ProfileFormReading {
  /** The edited profile's address now names another server: saving removes its tokens. */
  movesServer: boolean
  /** The saved token is to be removed (moot when the move removes it anyway). */
  clearing: boolean
  tokenGiven: boolean
  passwordGiven: boolean
  /** What saving sends, or null while a field is wrong. */
  submission: ProfileFormSubmit | null
  /** Each problem with the field it is about (the first of a path), in the schema's order. */
  problems: readonly { field: PropertyKey | undefined; message: string }[]
}

const problemsOf = (issues: readonly { path: readonly PropertyKey[]; message: string }[]) =>
  issues.map((issue) => ({ field: issue.path[0], message: issue.message }))

/**
 * What the form sends. Secrets are sent only when typed; the CA bundle only when it changed (main
 * reads the file then, and an unrelated edit must not fail on it); the storage choice only with a
 * secret to keep.
 */
export function readProfileForm(values: ProfileFormValues, editing: ProfileView | null): ProfileFormReading {
  const { baseUrl, apiToken, proxyMode, proxyPassword, caBundlePath, tokenStorage } = values
  // Tokens belong to the server that issued them: main drops them when the address moves to
  // another scheme, host or port, so the form says so before saving and asks for the new one.
  const movesServer = editing !== null && editing.token.set && URL.canParse(baseUrl) && !sameOrigin(baseUrl, editing.baseUrl)
  const clearing = values.clearToken && !movesServer
  const tokenGiven = apiToken.trim() !== ''
  const passwordGiven = proxyMode === 'custom' && proxyPassword !== '' && !values.clearProxyPassword
  const fields = {
    name: values.name,
    baseUrl,
    environmentLabel: values.environmentLabel,
    environmentKind: values.environmentKind,
    timeoutSeconds: Number(values.timeoutSeconds),
    proxyMode,
    proxyUrl: values.proxyUrl,
    proxyUsername: values.proxyUsername,
    ...(editing && caBundlePath.trim() === editing.caBundlePath ? {} : { caBundlePath }),
    ...(passwordGiven ? { proxyPassword } : {}),
    ...(tokenGiven || passwordGiven ? { tokenStorage } : {}),
    ...(tokenGiven ? { apiToken } : {}),
  }
  const readings = { movesServer, clearing, tokenGiven, passwordGiven }
  // Parsed apart, so each submission keeps its own type.
  if (editing) {
    const clearingPassword = values.clearProxyPassword && editing.proxyPasswordSet ? { clearProxyPassword: true as const } : {}
    const changes = ProfileChangesSchema.safeParse(
      clearing
        ? { ...fields, ...clearingPassword, apiToken: undefined, tokenStorage: undefined, clearToken: true }
        : { ...fields, ...clearingPassword },
    )
    return changes.success
      ? { ...readings, submission: { kind: 'update', id: editing.id, changes: changes.data }, problems: [] }
      : { ...readings, submission: null, problems: problemsOf(changes.error.issues) }
  }
  const draft = ProfileDraftSchema.safeParse(fields)
  return draft.success
    ? { ...readings, submission: { kind: 'create', draft: draft.data }, problems: [] }
    : { ...readings, submission: null, problems: problemsOf(draft.error.issues) }
}
