import { forEachExtraKey } from './known-keys'
import { isPlainObject } from './mint-schema'
import type { SiteConfigProblem } from './problem'
import { formatProblemPath } from './problem-path'
import type { RuleSet } from './rule-sets'

export interface MintConfigNotes {
  /** What is allowed but probably not meant: unknown keys, versions no anchor can reach… */
  warnings: SiteConfigProblem[]
  /** Mintlify's settings outside the site.json spec (docs/site-json.md): kept as written, said once, nothing to fix. */
  info: SiteConfigProblem[]
}

/**
 * Warnings and information about a file. Runs on any value, valid or not, so a writer sees them
 * with the errors; every rule checks the types it reads.
 */
export function findNotes(config: unknown, rules: RuleSet): MintConfigNotes {
  const notes = extraKeyNotes(config, rules)
  if (!isPlainObject(config)) return notes
  if (Array.isArray(config.navigation) && config.navigation.length === 0)
    notes.warnings.push({ path: 'navigation', message: 'is empty: the site will have no pages' })
  notes.warnings.push(...anchorVersionWarnings(config.anchors, config.versions), ...basicAuthNameWarnings(config.api))
  return notes
}

function extraKeyNotes(config: unknown, rules: RuleSet): MintConfigNotes {
  const notes: MintConfigNotes = { warnings: [], info: [] }
  const outsideSpec =
    rules === 'spec'
      ? 'is a Mintlify setting outside the spec: kept as written'
      : 'is a Mintlify setting the form has no field for: kept as written'
  forEachExtraKey(config, rules, {
    unknown(path, knownSiblings) {
      const suggestion = closestKnownKey(String(path.at(-1)), knownSiblings)
      notes.warnings.push({
        path: formatProblemPath(path),
        message: suggestion
          ? `is not a known setting (did you mean "${suggestion}"?): kept as written`
          : 'is not a known setting: kept as written',
      })
    },
    outsideSpec(path) {
      notes.info.push({ path: formatProblemPath(path), message: outsideSpec })
    },
  })
  return notes
}

// An anchor tied to a version the dropdown does not offer can never be shown.
function anchorVersionWarnings(anchors: unknown, versions: unknown): SiteConfigProblem[] {
  if (!Array.isArray(anchors)) return []
  const listed = new Set(Array.isArray(versions) ? versions.map(versionName).filter((name) => name !== undefined) : [])
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

// A version is a name, or (Mintlify) an object with one.
const versionName = (version: unknown) =>
  typeof version === 'string' ? version : isPlainObject(version) && typeof version.name === 'string' ? version.name : undefined

const BASIC_AUTH_NAME = /^[^:]+:[^:]+$/

function basicAuthNameWarnings(api: unknown): SiteConfigProblem[] {
  const auth = isPlainObject(api) ? api.auth : undefined
  if (!isPlainObject(auth) || auth.method !== 'basic' || typeof auth.name !== 'string' || BASIC_AUTH_NAME.test(auth.name)) return []
  return [
    {
      path: 'api.auth.name',
      message: 'should read <usernameName>:<passwordName> when method is "basic", like "username:password"',
    },
  ]
}

/** A known key the writer probably meant: same letters in another case, or one or two typos away. */
export function closestKnownKey(key: string, known: Iterable<string>): string | undefined {
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
