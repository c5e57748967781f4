import type { ReactNode } from 'react'
import type { Path } from '../../state/json-path'
import { fieldId } from '../../state/view-store'
import { ProblemMessages } from './FieldFrame'
import { useProblemsAt, useShapeAt } from './use-field'
import { WrongShapeNote } from './WrongShapeNote'

export const sectionHeadingId = (section: string) => `site-section-${section}`

/** One card of the form, titled so the section index and screen-reader headings find it. */
export function FormSection({
  id,
  title,
  description,
  children,
}: {
  id: string
  title: string
  description?: ReactNode
  children: ReactNode
}) {
  return (
    <section className="form-section card" aria-labelledby={sectionHeadingId(id)}>
      <h2 id={sectionHeadingId(id)} className="form-section__title" tabIndex={-1}>
        {title}
      </h2>
      {description ? <p className="form-section__description">{description}</p> : null}
      <div className="form-section__body">{children}</div>
    </section>
  )
}

/** The problems reported on a whole object or list rather than on one of its fields. */
export function ProblemsAt({ path }: { path: Path }) {
  const problems = useProblemsAt(path)
  return problems.length ? <ProblemMessages problems={problems} /> : null
}

/**
 * An object setting (colors.background, api.auth …) as a group of fields. Its fields create the
 * object when first filled and remove it when all are emptied, so an unused object never lingers.
 */
export function ObjectFieldset({
  path,
  legend,
  hint,
  children,
  className,
}: {
  path: Path
  legend: string
  hint?: ReactNode
  children: ReactNode
  className?: string
}) {
  const shape = useShapeAt(path)
  return (
    <fieldset className={`object-fieldset${className ? ` ${className}` : ''}`} id={fieldId(path)} tabIndex={-1}>
      <legend className="object-fieldset__legend">{legend}</legend>
      {hint ? <p className="field__hint">{hint}</p> : null}
      <ProblemsAt path={path} />
      {shape === 'object' || shape === 'missing' ? (
        <div className="form-grid">{children}</div>
      ) : (
        <WrongShapeNote id={`${fieldId(path)}:note`} what={legend} />
      )}
    </fieldset>
  )
}
