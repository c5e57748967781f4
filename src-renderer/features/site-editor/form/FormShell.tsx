import type { ReactNode } from 'react'
import { useEditor } from '../state/editor-store'
import { fieldId } from '../state/view-store'
import { sectionHeadingId } from './controls/FormSection'
import { useShapeAt } from './controls/use-field'
import { WrongShapeNote } from './controls/WrongShapeNote'

/**
 * What every format's form stands in: the index of its sections, and nothing editable while the
 * text does not parse or writes a key twice. A file that never parsed shows nothing (the banner
 * above says where it breaks); one that is not an object says so.
 */
export function FormShell({ sections, children }: { sections: readonly { id: string; label: string }[]; children: ReactNode }) {
  const rootShape = useShapeAt([])
  const waiting = useEditor((state) => state.syntaxError !== null || state.duplicates.length > 0)
  if (rootShape === 'missing') return null
  if (rootShape !== 'object') return <WrongShapeNote id={fieldId([])} what="The file" />
  return (
    <div className="site-form" inert={waiting}>
      <nav className="section-index" aria-label="Form sections">
        {sections.map((section) => (
          <button key={section.id} type="button" className="section-index__link" onClick={() => jumpTo(section.id)}>
            {section.label}
          </button>
        ))}
      </nav>
      {children}
    </div>
  )
}

/** Scrolls to a form section's heading and focuses it (the section index's links). */
function jumpTo(section: string) {
  const heading = document.getElementById(sectionHeadingId(section))
  heading?.scrollIntoView({ block: 'start' })
  heading?.focus({ preventScroll: true })
}
