import { type KeyboardEvent, useRef } from 'react'
import { useNavigation } from './navigation-store'
import { sections } from './sections'

const isMac = typeof navigator !== 'undefined' && /Mac/.test(navigator.platform)

/** The section list: Tab reaches it once, arrow keys move inside it (a roving tab stop). */
export function Sidebar() {
  const { current, open } = useNavigation()
  const buttons = useRef<(HTMLButtonElement | null)[]>([])

  const onKeyDown = (event: KeyboardEvent<HTMLButtonElement>, index: number) => {
    const last = sections.length - 1
    const target =
      event.key === 'ArrowDown'
        ? index === last
          ? 0
          : index + 1
        : event.key === 'ArrowUp'
          ? index === 0
            ? last
            : index - 1
          : event.key === 'Home'
            ? 0
            : event.key === 'End'
              ? last
              : null
    if (target === null) return
    event.preventDefault()
    buttons.current[target]?.focus()
  }

  return (
    <nav className="sidebar" aria-label="Sections">
      <ul className="sidebar__list">
        {sections.map((section, index) => {
          const active = section.id === current
          return (
            <li key={section.id}>
              <button
                ref={(element) => {
                  buttons.current[index] = element
                }}
                type="button"
                className="sidebar__item"
                aria-current={active ? 'page' : undefined}
                tabIndex={active ? 0 : -1}
                title={`${section.description} (${isMac ? '⌘' : 'Ctrl+'}${section.shortcut})`}
                aria-keyshortcuts={`${isMac ? 'Meta' : 'Control'}+${section.shortcut}`}
                onClick={() => open(section.id)}
                onKeyDown={(event) => onKeyDown(event, index)}
              >
                <span className="sidebar__icon" aria-hidden="true">
                  {section.icon}
                </span>
                <span className="sidebar__label">{section.label}</span>
                <kbd className="sidebar__shortcut" aria-hidden="true">
                  {isMac ? '⌘' : 'Ctrl '}
                  {section.shortcut}
                </kbd>
              </button>
            </li>
          )
        })}
      </ul>
    </nav>
  )
}
