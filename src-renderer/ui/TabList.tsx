import type { KeyboardEvent } from 'react'

interface TabListProps<Id extends string> {
  label: string
  tabs: readonly { id: Id; label: string }[]
  selected: Id
  onSelect(id: Id): void
  /** Tab element ids are `${idPrefix}-${id}`, so the panel can name its tab. */
  idPrefix: string
  panelId: string
  className?: string
}

/** ARIA tabs with one tab stop: Left and Right move between tabs and select them. */
export function TabList<Id extends string>({ label, tabs, selected, onSelect, idPrefix, panelId, className }: TabListProps<Id>) {
  const onKeyDown = (event: KeyboardEvent<HTMLButtonElement>, index: number) => {
    const step = event.key === 'ArrowRight' ? 1 : event.key === 'ArrowLeft' ? -1 : 0
    if (!step) return
    event.preventDefault()
    const next = tabs[(index + step + tabs.length) % tabs.length]!
    onSelect(next.id)
    document.getElementById(`${idPrefix}-${next.id}`)?.focus()
  }
  return (
    <div role="tablist" aria-label={label} className={className ?? 'tabs'}>
      {tabs.map((tab, index) => (
        <button
          key={tab.id}
          id={`${idPrefix}-${tab.id}`}
          type="button"
          role="tab"
          className="tabs__tab"
          aria-selected={selected === tab.id}
          aria-controls={panelId}
          tabIndex={selected === tab.id ? 0 : -1}
          onClick={() => onSelect(tab.id)}
          onKeyDown={(event) => onKeyDown(event, index)}
        >
          {tab.label}
        </button>
      ))}
    </div>
  )
}
