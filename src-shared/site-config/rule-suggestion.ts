import { plural } from '../text/plural'
import { FOOTER_PLATFORMS, isPlainObject } from './mint-schema'
import { checkMintConfig, type SiteConfigCheck } from './mint-validate'

const specPlatforms = new Set<string>(FOOTER_PLATFORMS)

function countNestedGroups(pages: unknown): number {
  if (!Array.isArray(pages)) return 0
  let count = 0
  for (const page of pages) if (isPlainObject(page)) count += 1 + countNestedGroups(page.pages)
  return count
}

/** What in a file goes beyond the site.json spec (docs/site-json.md) in Mintlify's way, in a writer's words ("2 nested groups"). */
export function mintlifyFeaturesOf(config: unknown): string[] {
  if (!isPlainObject(config)) return []
  const features: string[] = []
  const groups = Array.isArray(config.navigation) ? config.navigation : []
  const nested = groups.reduce<number>((total, group) => total + (isPlainObject(group) ? countNestedGroups(group.pages) : 0), 0)
  if (nested) features.push(plural(nested, 'nested group'))
  const platforms = isPlainObject(config.footerSocials) ? Object.keys(config.footerSocials).filter((key) => !specPlatforms.has(key)) : []
  if (platforms.length) features.push(`footer platform${platforms.length === 1 ? '' : 's'} ${platforms.join(', ')}`)
  const background = isPlainObject(config.colors) ? config.colors.background : undefined
  if (isPlainObject(background) && (background.light === undefined) !== (background.dark === undefined))
    features.push('a background colour for one mode only')
  return features
}

/**
 * The sentence the editor shows when a file breaks the site.json spec (docs/site-json.md) but
 * follows Mintlify's rules, or null. `specCheck` is the check already made under the spec's rules,
 * so the common case costs nothing.
 */
export function mintlifySuggestion(config: unknown, specCheck: SiteConfigCheck): string | null {
  if (specCheck.valid) return null
  // Only a file that uses one of these is offered the switch; the second check runs only then.
  const features = mintlifyFeaturesOf(config)
  if (!features.length || !checkMintConfig(config, 'mintlify').valid) return null
  return `This file is written for Mintlify (${features.join('; ')}): it breaks the spec but follows the Mintlify-compatible rules.`
}
