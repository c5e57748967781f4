import type { ReactNode } from 'react'
import { plural } from '../../../../../src-shared/text/plural'
import { setField } from '../../state/editor-store'
import type { Path } from '../../state/json-path'
import { fieldId } from '../../state/view-store'
import { type ControlProps, FieldFrame } from './FieldFrame'
import { focusSoon, useValueAt } from './use-field'

export interface TextFieldProps {
  path: Path
  label: string
  placeholder?: string
  required?: boolean
  labelHidden?: boolean
  hint?: ReactNode
  className?: string
  /** The id of a datalist offering values (the docs folder's pages). */
  list?: string
}

/**
 * A string setting. Emptying it removes the key (a default is never written by accident); a list
 * item keeps an empty string instead, since removing it would shift the items after it. A value
 * of another type (a nested group where a page belongs, a number) is never turned into text by a
 * keystroke: it is shown as it is, read-only, and only Replace swaps it for text.
 */
export function TextField({ path, label, placeholder, required, labelHidden, hint, className, list }: TextFieldProps) {
  const value = useValueAt(path)
  const isListItem = typeof path.at(-1) === 'number'
  if (value !== undefined && typeof value !== 'string') {
    return (
      <FieldFrame path={path} label={label} required={required} labelHidden={labelHidden} hint={hint} className={className}>
        {(control) => (
          <div className="wrong-type">
            <WrongTypeValue control={control} value={value} />
            <button
              type="button"
              className="btn btn--small"
              aria-label={`Replace ${label} with text`}
              onClick={() => {
                setField(path, '')
                focusSoon(fieldId(path))
              }}
            >
              Replace
            </button>
          </div>
        )}
      </FieldFrame>
    )
  }
  return (
    <FieldFrame path={path} label={label} required={required} labelHidden={labelHidden} hint={hint} className={className}>
      {(control) => (
        <input
          {...control}
          type="text"
          value={value ?? ''}
          placeholder={placeholder}
          spellCheck={false}
          autoComplete="off"
          list={list}
          onChange={(event) => setField(path, event.target.value === '' && !isListItem ? undefined : event.target.value)}
        />
      )}
    </FieldFrame>
  )
}

/** A value of another type, in a read-only text box: focusable, labelled and described like the field it stands for. */
export function WrongTypeValue({ control, value }: { control: ControlProps; value: unknown }) {
  const described = describeValue(value)
  return <input {...control} type="text" readOnly className="wrong-type__value" value={described} title={described} />
}

/** A value the field cannot edit as text, in words: what it is, kept as it is. */
function describeValue(value: unknown): string {
  if (value !== null && typeof value === 'object' && !Array.isArray(value)) {
    const object = value as Record<string, unknown>
    if (typeof object.group === 'string' && Array.isArray(object.pages)) {
      return `A nested group, “${object.group}”, with ${plural(object.pages.length, 'page')}`
    }
  }
  const json = JSON.stringify(value)
  const kind = Array.isArray(value) ? 'A list' : value === null ? 'null' : typeof value === 'object' ? 'An object' : `The ${typeof value}`
  return `${kind}: ${json.length > 60 ? `${json.slice(0, 57)}…` : json}`
}
