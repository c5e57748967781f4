import type { ReactElement, ReactNode } from 'react'
import { FieldLabel } from '../../../../ui/Field'
import type { Path } from '../../state/json-path'
import type { Problem } from '../../state/problem-index'
import { fieldId } from '../../state/view-store'
import { useProblemsAt } from './use-field'

export interface ControlProps {
  id: string
  'aria-describedby'?: string
  'aria-invalid'?: true
  'aria-required'?: true
}

interface FieldFrameProps {
  path: Path
  label: string
  required?: boolean
  /** Keeps the label for assistive technology only, where a row's context already says it (a page in a list). */
  labelHidden?: boolean
  hint?: ReactNode
  className?: string
  children: (control: ControlProps) => ReactElement
}

/**
 * A labelled control for one place in the file, with that place's errors and warnings under it.
 * Its id is derived from the path, which is how a click in the Problems list finds it.
 */
export function FieldFrame({ path, label, required, labelHidden, hint, className, children }: FieldFrameProps) {
  const id = fieldId(path)
  const problems = useProblemsAt(path)
  const hasError = problems.some((problem) => problem.severity === 'error')
  const hintId = `${id}:hint`
  const problemsId = `${id}:problems`
  const describedBy = [hint ? hintId : null, problems.length ? problemsId : null].filter(Boolean).join(' ') || undefined
  return (
    <div className={['site-field', hasError ? 'site-field--error' : '', className].filter(Boolean).join(' ')}>
      <FieldLabel htmlFor={id} label={label} required={required} hidden={labelHidden} />
      {children({ id, 'aria-describedby': describedBy, 'aria-invalid': hasError || undefined, 'aria-required': required || undefined })}
      {hint ? (
        <div id={hintId} className="field__hint">
          {hint}
        </div>
      ) : null}
      {problems.length ? <ProblemMessages id={problemsId} problems={problems} /> : null}
    </div>
  )
}

/** A place's errors and warnings, each announced with its severity. */
export function ProblemMessages({ id, problems }: { id?: string; problems: readonly Problem[] }) {
  return (
    <ul id={id} className="site-field__problems">
      {problems.map((problem, index) => (
        <li key={index} className={problem.severity === 'error' ? 'field__error' : 'field__warning'}>
          <span className="visually-hidden">{problem.severity === 'error' ? 'Error: ' : 'Warning: '}</span>
          {problem.message}
        </li>
      ))}
    </ul>
  )
}
