import { useVirtualizer } from '@tanstack/react-virtual'
import { type CSSProperties, type MouseEvent, useEffect, useMemo, useRef, useState } from 'react'
import type { Folder, FromFrame, PageContent, SidebarRow, SiteModel } from '../frame-protocol'
import { readableAccent, readableTextOn } from '../theme-colors'
import { Icon } from './icons'
import { parsePage } from './mdx-page'
import { OperationPage } from './OperationPage'
import { markPage, renderTree } from './page-content'

// The docs site as its readers see it, drawn inside the sandboxed frame from what the editor
// sends: the top bar, the switchers, the sidebar (a virtual list: a 23,000-page navigation draws
// only the rows in view) and the open page.

export const post = (message: FromFrame) => window.parent.postMessage(message, '*')

const SWITCHER_LABELS: Record<string, string> = {
  products: 'Product',
  languages: 'Language',
  versions: 'Version',
  dropdowns: 'Section',
  menu: 'Menu',
}

/** The theme's own page colour when the document names none (frame.css's .site and .site--dark). */
const DEFAULT_BACKGROUND = { light: '#ffffff', dark: '#0b0d12' } as const

export interface FrameState {
  site: SiteModel | null
  mode: 'light' | 'dark'
  folder: Folder
  page: PageContent | null
}

/** The logo, or the site's name where there is none or it does not load (a file not yet indexed, or broken). */
function Brand({ logo, name }: { logo: string | null; name: string }) {
  const [failed, setFailed] = useState<string | null>(null)
  if (!logo || failed === logo) return <span className="topbar__name">{name}</span>
  return <img className="topbar__logo" src={logo} alt={name} onError={() => setFailed(logo)} />
}

export function FrameApp({ state }: { state: FrameState }) {
  const { site, mode, folder, page } = state
  if (!site) return <p className="frame-empty">Loading the preview…</p>
  const primary = mode === 'dark' ? site.colors.light : site.colors.primary
  const background = site.background[mode] ?? DEFAULT_BACKGROUND[mode]
  const button = mode === 'dark' ? primary : site.colors.dark
  const style = {
    '--primary': primary,
    '--primary-strong': site.colors.dark,
    // The writer's colours as the theme uses them, made readable where they carry text.
    '--primary-text': readableAccent(primary, background, 5),
    '--button': button,
    '--on-button': readableTextOn(button),
    '--background': background,
    ...(site.font ? { '--font': `"${site.font}", ui-sans-serif, system-ui, sans-serif` } : {}),
  } as CSSProperties
  const tabs = site.switchers.find((switcher) => switcher.level === 'tabs')
  const anchors = site.switchers.find((switcher) => switcher.level === 'anchors')
  const selects = site.switchers.filter((switcher) => switcher.level !== 'tabs' && switcher.level !== 'anchors')
  const logo = site.logo[mode]
  return (
    <div className={`site site--${mode} theme--${site.theme}`} style={style}>
      <header className="topbar">
        <div className="topbar__brand">
          <Brand logo={logo} name={site.name} />
        </div>
        {selects.map((switcher) => (
          <label key={switcher.level} className="topbar__select">
            <span className="visually-hidden">{SWITCHER_LABELS[switcher.level] ?? switcher.level}</span>
            <select
              value={switcher.selected}
              onChange={(event) => post({ kind: 'select', level: switcher.level, index: Number(event.target.value) })}
            >
              {switcher.choices.map((choice, index) => (
                <option key={index} value={index}>
                  {choice.name}
                </option>
              ))}
            </select>
          </label>
        ))}
        <div className="topbar__search" aria-hidden="true">
          <Icon name="magnifying-glass" size={13} /> Search…
        </div>
        <nav className="topbar__links" aria-label="Top bar links">
          {site.links.map((link, index) => (
            <a key={index} href={link.href} data-external="true" title={link.href}>
              {link.label}
            </a>
          ))}
          {site.primary ? (
            <a
              className={`topbar__primary topbar__primary--${site.primary.type}`}
              href={site.primary.href}
              data-external="true"
              title={site.primary.href}
            >
              {site.primary.type === 'github' ? <Icon name="github" size={14} /> : null}
              {site.primary.type === 'discord' ? <Icon name="discord" size={14} /> : null}
              {site.primary.label}
            </a>
          ) : null}
        </nav>
      </header>
      {tabs ? (
        <nav className="tabbar" aria-label="Tabs">
          {tabs.choices.map((choice, index) => (
            <button
              key={index}
              type="button"
              className={`tabbar__tab${index === tabs.selected ? ' tabbar__tab--selected' : ''}`}
              aria-current={index === tabs.selected ? 'page' : undefined}
              onClick={() => (choice.href ? undefined : post({ kind: 'select', level: 'tabs', index }))}
            >
              {choice.icon ? <Icon name={choice.icon} size={13} /> : null}
              {choice.name}
            </button>
          ))}
        </nav>
      ) : null}
      <div className="layout">
        <aside className="sidebar" aria-label="Sidebar">
          {anchors || site.globalLinks.length ? (
            <ul className="anchors">
              {anchors?.choices.map((choice, index) => (
                <li key={`a${index}`}>
                  <button
                    type="button"
                    className={`anchor${index === anchors.selected ? ' anchor--selected' : ''}`}
                    onClick={() => (choice.href ? undefined : post({ kind: 'select', level: 'anchors', index }))}
                  >
                    <span className="anchor__icon" style={choice.color ? { background: choice.color, color: '#fff' } : undefined}>
                      <Icon name={choice.icon} size={12} />
                    </span>
                    {choice.name}
                  </button>
                </li>
              ))}
              {site.globalLinks.map((choice, index) => (
                <li key={`g${index}`}>
                  <a className="anchor" href={choice.href ?? '#'} data-external="true" title={choice.href ?? undefined}>
                    <span className="anchor__icon" style={choice.color ? { background: choice.color, color: '#fff' } : undefined}>
                      <Icon name={choice.icon} size={12} />
                    </span>
                    {choice.name}
                  </a>
                </li>
              ))}
            </ul>
          ) : null}
          <Sidebar rows={site.sidebar} current={site.current} />
        </aside>
        <main className="content" id="content">
          <Page page={page} folder={folder} />
        </main>
      </div>
    </div>
  )
}

const ROW_HEIGHT = { group: 36, page: 30 } as const

function Sidebar({ rows, current }: { rows: SidebarRow[]; current: string | null }) {
  const scroller = useRef<HTMLDivElement>(null)
  // eslint-disable-next-line react-hooks/incompatible-library -- the virtualizer is read during render by design
  const virtualizer = useVirtualizer({
    count: rows.length,
    getScrollElement: () => scroller.current,
    estimateSize: (index) => ROW_HEIGHT[rows[index]!.kind],
    overscan: 12,
  })
  const currentIndex = rows.findIndex((row) => row.kind === 'page' && row.page === current)
  useEffect(() => {
    if (currentIndex >= 0) virtualizer.scrollToIndex(currentIndex, { align: 'auto' })
  }, [currentIndex, virtualizer])
  return (
    <div className="sidebar__scroll" ref={scroller}>
      <ul className="sidebar__rows" aria-label="Pages" style={{ height: virtualizer.getTotalSize() }}>
        {virtualizer.getVirtualItems().map((item) => {
          const row = rows[item.index]!
          const style = { transform: `translateY(${item.start}px)`, height: item.size, paddingLeft: 12 + row.depth * 12 }
          if (row.kind === 'group')
            return (
              <li key={item.key} className="sidebar__group" style={style}>
                {row.icon ? <Icon name={row.icon} size={12} /> : null}
                {row.label}
              </li>
            )
          const selected = row.page === current
          return (
            <li key={item.key} className="sidebar__item" style={style}>
              <button
                type="button"
                className={`sidebar__page${selected ? ' sidebar__page--selected' : ''}${row.missing ? ' sidebar__page--missing' : ''}`}
                aria-current={selected ? 'page' : undefined}
                title={row.missing ?? undefined}
                onClick={() => (row.missing ? post({ kind: 'focus', segments: row.segments }) : post({ kind: 'open', page: row.page }))}
              >
                {row.method ? <span className={`method method--small method--${row.method.toLowerCase()}`}>{row.method}</span> : null}
                <span className="sidebar__label">{row.label}</span>
                {row.missing ? <span className="sidebar__missing">missing</span> : null}
              </button>
            </li>
          )
        })}
      </ul>
    </div>
  )
}

function Page({ page, folder }: { page: PageContent | null; folder: Folder }) {
  const view = useMemo(() => {
    if (!page) return null
    const parsed = page.text !== null ? parsePage({ text: page.text, file: page.file, snippets: page.snippets }) : null
    const marked = parsed
      ? markPage(parsed.tree, page.file, {
          filesBase: folder.filesBase,
          pages: new Set(folder.pages),
          files: new Set(folder.files),
          webPictures: folder.webPictures,
        })
      : null
    return { parsed, marked, body: marked ? renderTree(marked.tree) : null }
  }, [page, folder])
  useEffect(() => {
    if (!page) return
    post({ kind: 'rendered', page: page.page })
    post({ kind: 'web-pictures', page: page.page, addresses: [...new Set(view?.marked?.webPictures ?? [])].slice(0, 1000) })
  }, [page, view])
  if (!page || !view) return <p className="frame-empty">Choose a page in the sidebar.</p>
  const frontMatter = view.parsed?.frontMatter ?? {}
  const title = typeof frontMatter.title === 'string' ? frontMatter.title : (page.operation?.summary ?? page.page.split('/').pop())
  const description = typeof frontMatter.description === 'string' ? frontMatter.description : (page.operation?.description ?? '')
  const onClick = (event: MouseEvent) => {
    const target = (event.target as HTMLElement).closest<HTMLElement>('a, button[data-problem]')
    if (!target) return
    if (target.tagName === 'A') event.preventDefault()
    const problem = target.dataset.problem
    if (problem !== undefined && view.marked) post({ kind: 'problem', message: view.marked.problems[Number(problem)] ?? '' })
    else if (target.dataset.page) post({ kind: 'open', page: target.dataset.page })
  }
  return (
    // Clicks on links and marks inside the page are read here: a link never navigates the frame.
    <article className="page" onClick={onClick}>
      {page.error ? (
        <p className="callout callout--danger" role="alert">
          {page.error}
        </p>
      ) : null}
      {view.parsed?.error ? (
        <p className="callout callout--danger" role="alert">
          This page is not valid MDX, so Mintlify cannot build it: {view.parsed.error}. It is shown here as plain Markdown.
        </p>
      ) : null}
      <header className="page__header">
        <h1 className="page__title">{title}</h1>
        {description ? <p className="page__description">{description}</p> : null}
      </header>
      {page.operation ? <OperationPage operation={page.operation} /> : null}
      <div className="prose">{view.body}</div>
    </article>
  )
}
