import type { ReactNode } from 'react'
import { plural } from '../../../../../src-shared/text/plural'
import type { Path } from '../../state/json-path'
import { useProblemCountsWithin } from '../controls/use-field'

/** The errors and warnings inside a row's place, as badges on the row: a collapsed row still shows what it holds. */
export function ProblemCountBadges({ path }: { path: Path }) {
  const counts = useProblemCountsWithin(path)
  return (
    <>
      {counts.errors ? <span className="badge badge--failure">{plural(counts.errors, 'error')}</span> : null}
      {counts.warnings ? <span className="badge badge--warning">{plural(counts.warnings, 'warning')}</span> : null}
    </>
  )
}

/** The arrow an expand button shows: down when the row is open. */
export const chevron = (expanded: boolean) => (expanded ? '▾' : '▸')

interface ExpandButtonProps {
  expanded: boolean
  onToggle: () => void
  className: string
  /** Its name, when its content does not say it. */
  label?: string
  /** The id of the part it shows, while shown. */
  controls?: string
  children: ReactNode
}

/** A row's expand button: says whether the row is open, and opens or closes it. */
export function ExpandButton({ expanded, onToggle, className, label, controls, children }: ExpandButtonProps) {
  return (
    <button type="button" className={className} aria-label={label} aria-expanded={expanded} aria-controls={controls} onClick={onToggle}>
      {children}
    </button>
  )
}
