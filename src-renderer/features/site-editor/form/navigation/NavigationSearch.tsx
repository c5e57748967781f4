import { useMemo, useState } from 'react'
import { formatProblemPath } from '../../../../../src-shared/site-config/problem-path'
import { useEditor } from '../../state/editor-store'
import { focusField } from '../../state/view-store'
import { findNavigationMatches, MAX_MATCHES } from './navigation-search'

/** Finds groups and pages by name, path or page title, across the whole navigation; a match opens its field. */
export function NavigationSearch() {
  const [query, setQuery] = useState('')
  const value = useEditor((state) => (query.trim() ? state.value : null))
  const titles = useEditor((state) => state.docs?.lookup.index.pages)
  const matches = useMemo(() => (value === null ? [] : findNavigationMatches(value, query, titles)), [query, value, titles])

  return (
    <div className="nav-search" role="search">
      <label className="field__label" htmlFor="site-navigation-search">
        Search the navigation
      </label>
      <input
        id="site-navigation-search"
        type="search"
        value={query}
        placeholder="A group, a page path or a page title"
        autoComplete="off"
        onChange={(event) => setQuery(event.target.value)}
      />
      {query.trim() ? (
        <ul className="nav-search__results" aria-label="Navigation matches">
          {matches.length === 0 ? <li className="muted">Nothing in the navigation matches “{query.trim()}”.</li> : null}
          {matches.slice(0, MAX_MATCHES).map((match) => (
            <li key={formatProblemPath(match.path)}>
              <button type="button" className="nav-search__match" onClick={() => focusField(match.path)}>
                <span>{match.label}</span> <span className="muted">{match.detail}</span>
              </button>
            </li>
          ))}
          {matches.length > MAX_MATCHES ? <li className="muted">More matches: type more of the name.</li> : null}
        </ul>
      ) : null}
    </div>
  )
}
