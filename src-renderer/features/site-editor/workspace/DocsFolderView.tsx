import { type DragEvent, type FormEvent, useMemo, useState } from 'react'
import { type DocsPage, isExternal, pageKey, referencedFiles, unlistedPages } from '../../../../src-shared/site-config/docs-files'
import { plural } from '../../../../src-shared/text/plural'
import { countFormat } from '../../../lib/count-format'
import { useFileDialogs } from '../../../lib/uses-file-dialogs'
import { openDialog } from '../state/dialog-store'
import { loadDocs, useDocsLoading } from '../state/docs-store'
import { editValue, useEditor } from '../state/editor-store'
import { isObject, type Path } from '../state/json-path'
import { placePage } from '../state/navigation-edits'
import { focusField } from '../state/view-store'

/** What a dragged page carries: the page, and where it was listed (null for a page no group lists). */
const PAGE_DRAG_TYPE = 'application/x-embed-console-page'
const GROUPS_SHOWN_FIRST = 40

/**
 * The docs folder beside the file: the sidebar as readers will see it (groups and the pages'
 * titles from their front matter), the pages on disk that no group lists (drag one onto a group,
 * or use Add to a group), and the files the site points at, each checked.
 */
export function DocsFolderView() {
  const docs = useEditor((state) => state.docs)
  const value = useEditor((state) => state.value)
  const hasPath = useEditor((state) => state.document?.path !== null)
  const { loading, error, progress } = useDocsLoading()
  const unlisted = useMemo(() => (docs ? unlistedPages(value, docs.lookup.index) : []), [docs, value])

  return (
    <div className="docs-view">
      <section className="card docs-view__header" aria-labelledby="docs-folder-title">
        <div className="docs-view__heading">
          <h2 id="docs-folder-title" className="form-section__title">
            Docs folder
          </h2>
          {docs ? (
            <code className="docs-view__root" title={docs.lookup.index.root}>
              {docs.lookup.index.root}
            </code>
          ) : null}
          <span className="muted" role="status">
            {loading
              ? progress
                ? `Indexing: ${countFormat.format(progress.done)} of ${countFormat.format(progress.total)} pages read…`
                : 'Indexing…'
              : docs
                ? 'Watching for changes'
                : ''}
          </span>
        </div>
        {error ? <p className="error-text">{error}</p> : null}
        {!docs && !loading && !hasPath ? (
          <p className="muted">Save the file, or choose its docs folder, to check its pages and files.</p>
        ) : null}
        {docs ? <DocsSummary unlisted={unlisted.length} /> : null}
        <FolderChoice />
      </section>
      {docs ? (
        <div className="docs-view__columns">
          <SidebarPreview />
          <div className="stack">
            <UnlistedPages pages={unlisted} />
            <ReferencedFiles />
          </div>
        </div>
      ) : null}
    </div>
  )
}

function DocsSummary({ unlisted }: { unlisted: number }) {
  const docs = useEditor((state) => state.docs)!
  const index = docs.lookup.index
  return (
    <>
      <p className="docs-view__summary">
        {plural(index.pages.length, 'page')} in the folder · {plural(unlisted, 'page')} in no group
      </p>
      {index.truncated ? (
        <p className="callout callout--warning" role="alert">
          The folder is too large: {countFormat.format(index.totalFiles ?? index.pages.length + index.files.length)} files, showing the
          first {countFormat.format(index.pages.length + index.files.length + (index.excluded?.length ?? 0))}. Choose the docs folder
          itself, not a folder above it.
        </p>
      ) : null}
      {index.notices?.map((notice) => (
        <p key={notice} className="callout callout--warning" role="status">
          {notice}
        </p>
      ))}
    </>
  )
}

/** Another folder: the system's dialog in the desktop app, a typed path in browser mode. */
function FolderChoice() {
  const dialogs = useFileDialogs()
  const [path, setPath] = useState('')
  const submit = (event: FormEvent) => {
    event.preventDefault()
    if (path.trim()) void loadDocs({ kind: 'path', path: path.trim() })
  }
  return (
    <div className="docs-view__choice">
      <button type="button" className="btn btn--small" onClick={() => void loadDocs()}>
        Index again
      </button>
      {dialogs.data ? (
        <button type="button" className="btn btn--small" onClick={() => void loadDocs({ kind: 'dialog' })}>
          Choose another folder…
        </button>
      ) : (
        <form className="row docs-view__path" onSubmit={submit} aria-label="Choose the docs folder">
          <label className="visually-hidden" htmlFor="site-docs-folder">
            Docs folder path
          </label>
          <input
            id="site-docs-folder"
            type="text"
            value={path}
            spellCheck={false}
            autoComplete="off"
            placeholder="/home/you/docs"
            onChange={(event) => setPath(event.target.value)}
          />
          <button type="submit" className="btn btn--small" disabled={!path.trim()}>
            Use this folder
          </button>
        </form>
      )}
    </div>
  )
}

interface DraggedPage {
  page: string
  from: Path | null
}

const startDrag = (event: DragEvent, dragged: DraggedPage) => {
  event.dataTransfer.setData(PAGE_DRAG_TYPE, JSON.stringify(dragged))
  event.dataTransfer.effectAllowed = 'move'
}

/** The navigation as a reader's sidebar: groups, nested groups, and each page by its title. Drop a page on a group to put it there. */
function SidebarPreview() {
  const navigation = useEditor((state) => (isObject(state.value) ? state.value.navigation : undefined))
  const [showAll, setShowAll] = useState(false)
  const groups = Array.isArray(navigation) ? navigation : []
  const shown = showAll ? groups : groups.slice(0, GROUPS_SHOWN_FIRST)
  return (
    <section className="card sidebar-preview" aria-labelledby="sidebar-preview-title">
      <h2 id="sidebar-preview-title" className="form-section__title">
        Sidebar preview
      </h2>
      <p className="field__hint">Titles come from each page’s front matter. Drag a page onto a group to move it there.</p>
      {groups.length === 0 ? <p className="muted">No groups yet.</p> : null}
      <ul className="sidebar-preview__groups">
        {shown.map((group, index) => (
          <PreviewGroup key={index} group={group} path={['navigation', index]} />
        ))}
      </ul>
      {groups.length > shown.length ? (
        <button type="button" className="btn btn--small btn--ghost" onClick={() => setShowAll(true)}>
          Show all {groups.length} groups
        </button>
      ) : null}
    </section>
  )
}

function PreviewGroup({ group, path }: { group: unknown; path: Path }) {
  const [over, setOver] = useState(false)
  const docs = useEditor((state) => state.docs)
  if (!isObject(group)) return null
  const name = typeof group.group === 'string' && group.group.trim() ? group.group : 'Untitled group'
  const pages = Array.isArray(group.pages) ? group.pages : []
  const accepts = (event: DragEvent) => event.dataTransfer.types.includes(PAGE_DRAG_TYPE)
  const onDrop = (event: DragEvent) => {
    setOver(false)
    if (!accepts(event)) return
    event.preventDefault()
    event.stopPropagation()
    const dragged = JSON.parse(event.dataTransfer.getData(PAGE_DRAG_TYPE)) as DraggedPage
    editValue((value) => placePage(value, dragged.page, path, dragged.from))
  }
  return (
    <li
      className={`sidebar-preview__group${over ? ' sidebar-preview__group--over' : ''}`}
      aria-label={`Group ${name}`}
      onDragOver={(event) => {
        if (!accepts(event)) return
        event.preventDefault()
        event.stopPropagation()
        setOver(true)
      }}
      onDragLeave={() => setOver(false)}
      onDrop={onDrop}
    >
      <button type="button" className="sidebar-preview__group-name" onClick={() => focusField([...path, 'group'])}>
        {name}
      </button>
      <ul className="sidebar-preview__pages">
        {pages.map((page, index) =>
          typeof page === 'string' ? (
            <PreviewPage
              key={index}
              page={page}
              path={[...path, 'pages', index]}
              title={docs?.lookup.index.pages.find((entry) => entry.path === pageKey(page))?.title ?? null}
              missing={docs ? !docs.lookup.pages.has(pageKey(page)) : false}
            />
          ) : (
            <PreviewGroup key={index} group={page} path={[...path, 'pages', index]} />
          ),
        )}
      </ul>
    </li>
  )
}

function PreviewPage({ page, path, title, missing }: { page: string; path: Path; title: string | null; missing: boolean }) {
  return (
    <li
      className={`sidebar-preview__page${missing ? ' sidebar-preview__page--missing' : ''}`}
      draggable
      onDragStart={(event) => startDrag(event, { page, from: path })}
    >
      <button type="button" className="sidebar-preview__page-name" title={page} onClick={() => focusField(path)}>
        {title ?? page}
      </button>
      {missing ? <span className="badge badge--warning">no file</span> : null}
    </li>
  )
}

/** Pages on disk that no group lists: drag one onto a group in the preview, or add it to a group. */
function UnlistedPages({ pages }: { pages: DocsPage[] }) {
  return (
    <section className="card" aria-labelledby="unlisted-pages-title">
      <h2 id="unlisted-pages-title" className="form-section__title">
        Not in any group ({pages.length})
      </h2>
      {pages.length === 0 ? (
        <p className="muted">Every page in the folder is in a group.</p>
      ) : (
        <ul className="unlisted-pages" aria-label="Pages not in any group">
          {pages.map((page) => (
            <li
              key={page.path}
              className="unlisted-page"
              draggable
              onDragStart={(event) => startDrag(event, { page: page.path, from: null })}
            >
              <span className="drag-handle" aria-hidden="true">
                ⠿
              </span>
              <span className="unlisted-page__name">
                {page.title ?? page.path}
                {page.title ? <code className="unlisted-page__path">{page.path}</code> : null}
              </span>
              <button
                type="button"
                className="btn btn--small"
                aria-label={`Add ${page.path} to a group`}
                onClick={() => openDialog({ kind: 'placePage', page: page.path, from: null })}
              >
                Add to a group…
              </button>
            </li>
          ))}
        </ul>
      )}
    </section>
  )
}

/** Logo, favicon, background image and OpenAPI files: found, missing, valid or not. */
function ReferencedFiles() {
  const value = useEditor((state) => state.value)
  const docs = useEditor((state) => state.docs)!
  const files = useMemo(() => referencedFiles(value), [value])
  const openapi = isObject(value) ? value.openapi : undefined
  const remote = (Array.isArray(openapi) ? openapi : [openapi]).filter(
    (file): file is string => typeof file === 'string' && isExternal(file),
  )
  return (
    <section className="card" aria-labelledby="referenced-files-title">
      <h2 id="referenced-files-title" className="form-section__title">
        Files the site uses
      </h2>
      {files.length === 0 && remote.length === 0 ? (
        <p className="muted">The file names no logo, favicon, background image or OpenAPI file.</p>
      ) : null}
      <ul className="referenced-files">
        {files.map((file) => {
          const check = docs.openapi.find((entry) => entry.file === file.reference)
          const found = docs.lookup.files.has(file.reference.replace(/^\.?\/+/, ''))
          const state = check ? check.state : found ? 'found' : 'missing'
          return (
            <li key={`${file.what}:${file.segments.join('.')}`} className={`referenced-file referenced-file--${state}`}>
              <span className="referenced-file__what">{file.what}</span> <code>{file.reference}</code>{' '}
              <span className={`badge${state === 'found' || state === 'valid' ? ' badge--success' : ' badge--warning'}`}>
                {STATE_WORDS[state]}
              </span>
              {check?.title ? (
                <span className="muted">
                  {' '}
                  {check.title}
                  {check.version ? ` ${check.version}` : ''}
                </span>
              ) : null}
              {check?.problems[0] ? <div className="field__warning">{check.problems[0]}</div> : null}
            </li>
          )
        })}
        {remote.map((url) => (
          <li key={url} className="referenced-file">
            <span className="referenced-file__what">OpenAPI file</span> <code>{url}</code>{' '}
            <span className="badge">online, not checked</span>
          </li>
        ))}
      </ul>
    </section>
  )
}

const STATE_WORDS = {
  found: 'found',
  missing: 'missing',
  valid: 'valid OpenAPI',
  invalid: 'not valid OpenAPI',
  unreadable: 'unreadable',
} as const
