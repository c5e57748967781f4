import type { CSSProperties } from 'react'
import { useEditor } from '../state/editor-store'
import { getIn, isObject } from '../state/json-path'
import { useEditorView } from '../state/view-store'
import { isHexColor, readableTextOn } from './theme-colors'

type Mode = 'light' | 'dark'

const FALLBACK = { primary: '#0D9373', background: { light: '#FFFFFF', dark: '#0F1117' } }
const MAX_ANCHORS = 4
const MAX_TABS = 5
const MAX_LINKS = 3

const read = (value: unknown, path: (string | number)[]) => getIn(value, path)
const text = (value: unknown, fallback = '') => (typeof value === 'string' && value.trim() ? value : fallback)
const color = (value: unknown, fallback: string) => (isHexColor(value) ? value : fallback)
const items = (value: unknown) => (Array.isArray(value) ? value.filter(isObject) : [])

/** The parts of the file the preview draws; a keystroke elsewhere (a navigation page) leaves it alone. */
function usePreviewSettings() {
  return {
    name: useEditor((state) => read(state.value, ['name'])),
    colors: useEditor((state) => read(state.value, ['colors'])),
    links: useEditor((state) => read(state.value, ['topbarLinks'])),
    cta: useEditor((state) => read(state.value, ['topbarCtaButton'])),
    anchors: useEditor((state) => read(state.value, ['anchors'])),
    topAnchor: useEditor((state) => read(state.value, ['topAnchor'])),
    tabs: useEditor((state) => read(state.value, ['tabs'])),
    modeToggle: useEditor((state) => read(state.value, ['modeToggle'])),
  }
}

type Settings = ReturnType<typeof usePreviewSettings>

/** The theme as a reader would see it, light and dark side by side: top bar, tabs, anchors and colours. */
export function ThemePreview() {
  const open = useEditorView((state) => state.previewOpen)
  const settings = usePreviewSettings()
  return (
    <section className="theme-preview card" aria-labelledby="theme-preview-title">
      <div className="theme-preview__header">
        <h2 id="theme-preview-title" className="theme-preview__title">
          Theme preview
        </h2>
        <button
          type="button"
          className="btn btn--small btn--ghost"
          aria-expanded={open}
          aria-controls="theme-preview-panes"
          onClick={() => useEditorView.setState({ previewOpen: !open })}
        >
          {open ? 'Hide' : 'Show'}
        </button>
      </div>
      {open ? (
        <div id="theme-preview-panes" className="theme-preview__panes">
          <PreviewPane mode="light" settings={settings} />
          <PreviewPane mode="dark" settings={settings} />
        </div>
      ) : null}
    </section>
  )
}

function PreviewPane({ mode, settings }: { mode: Mode; settings: Settings }) {
  const colors = isObject(settings.colors) ? settings.colors : {}
  const primary = color(colors.primary, FALLBACK.primary)
  // The spec: `light` is the primary colour in dark mode, `dark` the colour of important buttons.
  const accent = mode === 'dark' ? color(colors.light, primary) : primary
  const button = color(colors.dark, primary)
  const background = color(read(colors, ['background', mode]), FALLBACK.background[mode])
  const ink = readableTextOn(background)
  const defaultMode = read(settings.modeToggle, ['default'])
  const toggleHidden = read(settings.modeToggle, ['isHidden']) === true

  const anchors = items(settings.anchors)
  const tabs = items(settings.tabs)
  const links = items(settings.links)
  const cta = isObject(settings.cta) ? settings.cta : null
  const topAnchorName = text(read(settings.topAnchor, ['name']), 'Documentation')

  const surface = { background, color: ink, '--preview-accent': accent, '--preview-line': `${ink}26` } as CSSProperties
  return (
    <figure className="preview-pane" style={surface}>
      <figcaption className="preview-pane__caption">
        {mode === 'light' ? 'Light mode' : 'Dark mode'}
        {defaultMode === mode ? ' · default' : ''}
      </figcaption>
      <div className="preview-topbar">
        <span className="preview-topbar__logo" aria-hidden="true" />
        <span className="preview-topbar__name">{text(settings.name, 'Untitled docs')}</span>
        <span className="preview-topbar__links">
          {links.slice(0, MAX_LINKS).map((link, index) => (
            <span key={index}>{text(link.name, 'Link')}</span>
          ))}
        </span>
        {toggleHidden ? null : (
          <span className="preview-topbar__toggle" aria-hidden="true">
            {mode === 'light' ? '☀' : '☾'}
          </span>
        )}
        {cta ? <CallToAction cta={cta} button={button} ink={ink} /> : null}
      </div>
      {tabs.length ? (
        <div className="preview-tabs">
          <span className="preview-tabs__tab preview-tabs__tab--active">{topAnchorName}</span>
          {tabs.slice(0, MAX_TABS).map((tab, index) => (
            <span key={index} className="preview-tabs__tab">
              {text(tab.name, 'Tab')}
            </span>
          ))}
          {tabs.length > MAX_TABS ? <span className="preview-tabs__tab">+{tabs.length - MAX_TABS}</span> : null}
        </div>
      ) : null}
      <div className="preview-body">
        <ul className="preview-anchors">
          <li>
            <span className="preview-anchor__icon" style={{ background: accent }} aria-hidden="true" />
            {topAnchorName}
          </li>
          {anchors.slice(0, MAX_ANCHORS).map((anchor, index) => (
            <li key={index}>
              <span className="preview-anchor__icon" style={{ background: anchorFill(anchor.color, accent) }} aria-hidden="true" />
              {text(anchor.name, 'Anchor')}
            </li>
          ))}
          {anchors.length > MAX_ANCHORS ? <li className="preview-anchors__more">+{anchors.length - MAX_ANCHORS} more</li> : null}
        </ul>
        <div className="preview-content" aria-hidden="true">
          <span className="preview-content__eyebrow" />
          <span className="preview-content__heading" />
          <span className="preview-content__line" />
          <span className="preview-content__line preview-content__line--short" />
          <span className="preview-content__button" style={{ background: button }} />
        </div>
      </div>
    </figure>
  )
}

function anchorFill(value: unknown, accent: string): string {
  if (isObject(value)) return `linear-gradient(135deg, ${color(value.from, accent)}, ${color(value.to, accent)})`
  return color(value, accent)
}

function CallToAction({ cta, button, ink }: { cta: Record<string, unknown>; button: string; ink: string }) {
  if (cta.type === 'github') {
    return (
      <span className="preview-cta preview-cta--github" style={{ borderColor: ink }}>
        ★ {text(cta.url, 'GitHub').replace(/^https?:\/\/(www\.)?github\.com\//, '')}
      </span>
    )
  }
  return (
    <span className="preview-cta" style={{ background: button, color: readableTextOn(button) }}>
      {text(cta.name, 'Button')}
    </span>
  )
}
