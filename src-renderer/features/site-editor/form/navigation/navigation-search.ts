import { pageKey } from '../../../../../src-shared/site-config/docs-files'
import { getIn, type Path } from '../../state/json-path'
import { groupsOf } from '../../state/navigation-edits'

/** The matches the search lists; one more is looked for, to say there are more. */
export const MAX_MATCHES = 50

export interface NavigationMatch {
  /** The field the match opens: a group's name or a page. */
  path: Path
  label: string
  /** Where it is: `group` for a group, the group's name for a page. */
  detail: string
}

/**
 * The groups and pages of a site.json or mint.json whose name, path or page title holds `query` (case aside), in reading
 * order, nested groups included. Stops after the group in which it passes MAX_MATCHES.
 */
export function findNavigationMatches(
  value: unknown,
  query: string,
  pages: readonly { path: string; title?: string | null }[] = [],
): NavigationMatch[] {
  const needle = query.trim().toLowerCase()
  if (!needle) return []
  const titleOf = new Map(pages.map((page) => [page.path, page.title]))
  const found: NavigationMatch[] = []
  for (const group of groupsOf(value)) {
    const node = getIn(value, group.path) as Record<string, unknown>
    if (group.label.toLowerCase().includes(needle)) found.push({ path: [...group.path, 'group'], label: group.label, detail: 'group' })
    const groupPages = Array.isArray(node.pages) ? node.pages : []
    groupPages.forEach((page, index) => {
      if (typeof page !== 'string') return
      const title = titleOf.get(pageKey(page)) ?? null
      if (page.toLowerCase().includes(needle) || title?.toLowerCase().includes(needle)) {
        found.push({ path: [...group.path, 'pages', index], label: title ? `${title} (${page})` : page, detail: group.label })
      }
    })
    if (found.length > MAX_MATCHES) break
  }
  return found
}
