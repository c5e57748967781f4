import { type ReactElement, type ReactNode, useId } from 'react'
import { cloneElement } from 'react'

interface FieldProps {
  label: string
  hint?: ReactNode
  error?: string | null
  warning?: string | null
  required?: boolean
  /** The control; it receives id, aria-describedby and aria-invalid. */
  children: ReactElement<Record<string, unknown>>
}

/** A labelled control with its hint and its problem, tied together for assistive technology. */
export function Field({ label, hint, error, warning, required, children }: FieldProps) {
  const id = useId()
  const hintId = `${id}-hint`
  const problemId = `${id}-problem`
  const describedBy = [hint ? hintId : null, error || warning ? problemId : null].filter(Boolean).join(' ') || undefined
  return (
    <div className={`field${error ? ' field--error' : ''}`}>
      <FieldLabel htmlFor={id} label={label} required={required} />
      {cloneElement(children, {
        id,
        'aria-describedby': describedBy,
        'aria-invalid': error ? true : undefined,
        'aria-required': required || undefined,
      })}
      {hint ? (
        <div id={hintId} className="field__hint">
          {hint}
        </div>
      ) : null}
      {error ? (
        <div id={problemId} className="field__error">
          {error}
        </div>
      ) : warning ? (
        <div id={problemId} className="field__warning">
          {warning}
        </div>
      ) : null}
    </div>
  )
}

/**
 * A field's label, with "(required)" beside it rather than inside it, so the control's accessible
 * name stays the bare label (required-ness is announced through aria-required instead).
 */
export function FieldLabel({ htmlFor, label, required, hidden }: { htmlFor: string; label: string; required?: boolean; hidden?: boolean }) {
  return (
    <div className={hidden ? 'visually-hidden' : 'field__label-row'}>
      <label className="field__label" htmlFor={htmlFor}>
        {label}
      </label>
      {required ? (
        <span className="field__required" aria-hidden="true">
          (required)
        </span>
      ) : null}
    </div>
  )
}
