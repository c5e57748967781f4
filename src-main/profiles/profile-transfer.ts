import { z } from 'zod'
import { AppErrorException } from '../../src-shared/ipc/result'
import {
  type ExportedProfile,
  type Profile,
  PROFILE_NAME_MAX_LENGTH,
  type ProfilesExport,
  ProfilesExportSchema,
} from '../../src-shared/profiles/schemas'

/** The export file's content: settings only, so the file can be shared or committed safely. */
export function buildProfilesExport(profiles: readonly Profile[], now: Date): ProfilesExport {
  return {
    format: 'embed-console-profiles',
    version: 1,
    exportedAt: now.toISOString(),
    profiles: profiles.map(({ name, baseUrl, timeoutSeconds, environmentLabel, environmentKind, proxyMode, proxyUrl, caBundlePath }) => ({
      name,
      baseUrl,
      timeoutSeconds,
      environmentLabel,
      environmentKind,
      proxyMode,
      proxyUrl,
      caBundlePath,
    })),
  }
}

export function parseProfilesExport(text: string): ExportedProfile[] {
  let json: unknown
  try {
    json = JSON.parse(text)
  } catch {
    // JSON.parse's own message quotes the text, which is not ours to echo.
    throw new AppErrorException('invalid_input', 'This file is not JSON, so it cannot be a profile export.')
  }
  const parsed = ProfilesExportSchema.safeParse(json)
  if (!parsed.success) {
    throw new AppErrorException(
      'invalid_input',
      `This file is not a profile export Embed Console can read:\n${z.prettifyError(parsed.error)}`,
    )
  }
  return parsed.data.profiles
}

/**
 * `wanted`, or `wanted (2)`, `wanted (3)` … : the first that no name in `taken` matches, ignoring
 * case (the CLI picks profiles by name, so names must tell them apart).
 */
export function uniqueName(wanted: string, taken: Iterable<string>): string {
  const used = new Set([...taken].map((name) => name.toLowerCase()))
  for (let n = 1; ; n += 1) {
    const suffix = n === 1 ? '' : ` (${n})`
    const candidate = `${wanted.slice(0, PROFILE_NAME_MAX_LENGTH - suffix.length).trimEnd()}${suffix}`
    if (!used.has(candidate.toLowerCase())) return candidate
  }
}
