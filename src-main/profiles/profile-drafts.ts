import { AppErrorException } from '../../src-shared/ipc/result'
import {
  type EnvironmentKind,
  type Profile,
  type ProfileChanges,
  type ProfileDraft,
  proxySettingsProblem,
} from '../../src-shared/profiles/schemas'
import { readPemCertificates } from '../user-api/trust'

/*
 * A profile's fields as the store makes them: from a draft, from an edit, as a copy. Nothing here
 * touches the database or the vault; the store writes what these build.
 */

/** Fields added after the first callers were written may be left out: they take their defaults. */
type Defaulted = 'environmentKind' | 'proxyMode' | 'proxyUrl' | 'proxyUsername' | 'caBundlePath'
export type NewProfile = Omit<ProfileDraft, Defaulted> & Partial<Pick<ProfileDraft, Defaulted>> & { environmentKind?: EnvironmentKind }

/** A new profile's identity: its id and the time it is made (its first update too). */
export interface Birth {
  id: string
  at: string
}

export function profileFromDraft(draft: NewProfile, { id, at }: Birth): Profile {
  const {
    name,
    baseUrl,
    timeoutSeconds,
    environmentLabel,
    environmentKind = 'unspecified',
    proxyMode = 'environment',
    proxyUrl = '',
    proxyUsername = '',
    caBundlePath = '',
  } = draft
  return {
    id,
    name,
    baseUrl,
    timeoutSeconds,
    environmentLabel,
    environmentKind,
    proxyMode,
    proxyUrl,
    proxyUsername,
    caBundlePath,
    createdAt: at,
    updatedAt: at,
  }
}

/** The profile as an edit leaves it; a field the edit leaves out keeps its value. */
export function changedProfile(current: Profile, changes: ProfileChanges, updatedAt: string): Profile {
  return {
    ...current,
    name: changes.name ?? current.name,
    baseUrl: changes.baseUrl ?? current.baseUrl,
    timeoutSeconds: changes.timeoutSeconds ?? current.timeoutSeconds,
    environmentLabel: changes.environmentLabel ?? current.environmentLabel,
    environmentKind: changes.environmentKind ?? current.environmentKind,
    proxyMode: changes.proxyMode ?? current.proxyMode,
    proxyUrl: changes.proxyUrl ?? current.proxyUrl,
    proxyUsername: changes.proxyUsername ?? current.proxyUsername,
    caBundlePath: changes.caBundlePath ?? current.caBundlePath,
    updatedAt,
  }
}

/** A copy under a new id and name: the settings, not what the server said of it, nor its built-in mark. */
export function copyOfProfile(source: Profile, copy: Birth & { name: string }): Profile {
  return {
    id: copy.id,
    name: copy.name,
    baseUrl: source.baseUrl,
    timeoutSeconds: source.timeoutSeconds,
    environmentLabel: source.environmentLabel,
    environmentKind: source.environmentKind,
    proxyMode: source.proxyMode,
    proxyUrl: source.proxyUrl,
    proxyUsername: source.proxyUsername,
    caBundlePath: source.caBundlePath,
    createdAt: copy.at,
    updatedAt: copy.at,
  }
}

/** A CA bundle is read when it is saved, so a wrong path is said in the form, not at the first call. */
export function checkCaBundle(path: string) {
  if (path) readPemCertificates(path, 'The CA bundle')
}

export function checkProxy(profile: Profile) {
  const problem = proxySettingsProblem(profile)
  if (problem) throw new AppErrorException('invalid_input', problem, { issues: [{ path: 'proxyUrl', message: problem }] })
}
