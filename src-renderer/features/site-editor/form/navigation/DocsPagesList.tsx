import { useEditor } from '../../state/editor-store'

/** The datalist every page field offers: the docs folder's pages. */
export const DOCS_PAGES_LIST = 'site-docs-pages'

/** The docs folder's pages, for every page field to offer as it is typed into. */
export function DocsPagesList() {
  const pages = useEditor((state) => state.docs?.lookup.index.pages)
  if (!pages) return null
  return (
    <datalist id={DOCS_PAGES_LIST}>
      {pages.map((page) => (
        <option key={page.path} value={page.path}>
          {page.title ?? undefined}
        </option>
      ))}
    </datalist>
  )
}
