import { formatProblemPath } from './format'
import { forEachUnknownKey } from './known-keys'
import { isPlainObject } from './schema'
import type { SiteConfigProblem } from './validate'

/**
 * What is allowed but probably not meant. Runs on any value, valid or not, so a writer sees
 * warnings and errors together; every rule checks the types it reads.
 */
export function findWarnings(config: unknown): SiteConfigProblem[] {
  const warnings = unknownKeyWarnings(config)
  if (!isPlainObject(config)) return warnings
  if (Array.isArray(config.navigation) && config.navigation.length === 0)
    warnings.push({ path: 'navigation', message: 'is empty: the site will have no pages' })
  warnings.push(...anchorVersionWarnings(config.anchors, config.versions), ...basicAuthNameWarnings(config.api))
  return warnings
}

function unknownKeyWarnings(config: unknown): SiteConfigProblem[] {
  const warnings: SiteConfigProblem[] = []
  forEachUnknownKey(config, (path, knownSiblings) => {
    const suggestion = closestKnownKey(String(path.at(-1)), knownSiblings)
    warnings.push({
      path: formatProblemPath(path),
      message: suggestion
        ? `is not a known setting (did you mean "${suggestion}"?): kept as written`
        : 'is not a known setting: kept as written',
    })
  })
  return warnings
}

// An anchor tied to a version the dropdown does not offer can never be shown.
function anchorVersionWarnings(anchors: unknown, versions: unknown): SiteConfigProblem[] {
  if (!Array.isArray(anchors)) return []
  const listed = new Set(Array.isArray(versions) ? versions.filter((name) => typeof name === 'string') : [])
  const warnings: SiteConfigProblem[] = []
  anchors.forEach((anchor, index) => {
    if (!isPlainObject(anchor) || typeof anchor.version !== 'string' || listed.has(anchor.version)) return
    warnings.push({
      path: formatProblemPath(['anchors', index, 'version']),
      message: `${JSON.stringify(anchor.version)} is not one of the versions listed in "versions", so this anchor never shows`,
    })
  })
  return warnings
}

const BASIC_AUTH_NAME = /^[^:]+:[^:]+$/

function basicAuthNameWarnings(api: unknown): SiteConfigProblem[] {
  const auth = isPlainObject(api) ? api.auth : undefined
  if (!isPlainObject(auth) || auth.method !== 'basic' || typeof auth.name !== 'string' || BASIC_AUTH_NAME.test(auth.name))
    return []
  return [
    {
      path: 'api.auth.name',
      message: 'should read <usernameName>:<passwordName> when method is "basic", like "username:password"',
    },
  ]
}

/** A known key the writer probably meant: same letters in another case, or one or two typos away. */
function closestKnownKey(key: string, known: Iterable<string>): string | undefined {
  const maxTypos = Math.min(2, Math.floor(key.length / 3))
  let closest: string | undefined
  let closestDistance = maxTypos + 1
  for (const candidate of known) {
    if (candidate.toLowerCase() === key.toLowerCase()) return candidate
    // The distance is at least the difference in length: skip the work (and long pasted keys).
    if (Math.abs(candidate.length - key.length) > maxTypos) continue
    const distance = editDistance(key, candidate)
    if (distance < closestDistance) {
      closest = candidate
      closestDistance = distance
    }
  }
  return closest
}

function editDistance(a: string, b: string): number {
  let previous = Array.from({ length: b.length + 1 }, (_, index) => index)
  for (let i = 1; i <= a.length; i++) {
    const current = [i]
    for (let j = 1; j <= b.length; j++) {
      const substitution = (previous[j - 1] as number) + (a[i - 1] === b[j - 1] ? 0 : 1)
      current[j] = Math.min((previous[j] as number) + 1, (current[j - 1] as number) + 1, substitution)
    }
    previous = current
  }
  return previous[b.length] as number
}
