import { Suspense, useEffect, useRef } from 'react'
import { useCallHandoff } from '../lib/call-handoff'
import { useHistoryHandoff } from '../lib/history-handoff'
import { useProductionActive } from '../lib/profiles'
import { ScreenHeader } from '../ui/ScreenHeader'
import { ToastRegion } from '../ui/toasts'
import { ActiveProfile } from './ActiveProfile'
import { LaunchNotices } from './LaunchNotices'
import { useNavigation } from './navigation-store'
import { sections } from './sections'
import { Sidebar } from './Sidebar'
import { StatusBar } from './StatusBar'

export function App({ transport }: { transport: 'electron' | 'browser' }) {
  const { current, opened, open } = useNavigation()
  const section = sections.find((candidate) => candidate.id === current) ?? sections[0]!
  const heading = useRef<HTMLHeadingElement>(null)
  const customer = useProductionActive()

  // A past call handed over from Activity goes to the Groups screen, which takes it.
  useEffect(() => useCallHandoff.subscribe((state) => state.pending && open('groups')), [open])
  // A group's history asked for from the catalog goes to Activity, which takes it.
  useEffect(() => useHistoryHandoff.subscribe((state) => state.pending && open('activity')), [open])

  useEffect(() => {
    document.title = `${section.label} · Embed Console`
  }, [section])
  // A section opened (even before the first screen was drawn) moves the focus to its title; on a
  // launch where none was, the page's own focus stays.
  useEffect(() => {
    if (opened > 0) heading.current?.focus()
  }, [opened])

  return (
    <div className="app">
      <a className="skip-link" href="#main">
        Skip to content
      </a>
      <header className={customer ? 'app-header app-header--customer' : 'app-header'}>
        <div className="app-header__brand">
          <span className="app-header__logo" aria-hidden="true">
            ◆
          </span>
          <span className="app-header__brand-name">Embed Console</span>
        </div>
        <span className="app-header__spacer" />
        <ActiveProfile />
      </header>
      <Sidebar />
      <main id="main" className="app-main" aria-labelledby="screen-title">
        <LaunchNotices />
        <ScreenHeader ref={heading} title={section.label} description={section.description} />
        <Suspense fallback={<p className="loading">Loading {section.label}…</p>}>
          <section.Screen />
        </Suspense>
      </main>
      <StatusBar transport={transport} />
      <ToastRegion />
    </div>
  )
}
