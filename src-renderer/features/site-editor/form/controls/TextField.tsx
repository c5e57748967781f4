import type { ReactNode } from 'react'
import { setField } from '../../state/editor-store'
import type { Path } from '../../state/json-path'
import { FieldFrame } from './FieldFrame'
import { useValueAt } from './use-field'

export interface TextFieldProps {
  path: Path
  label: string
  placeholder?: string
  required?: boolean
  labelHidden?: boolean
  hint?: ReactNode
  className?: string
}

/**
 * A string setting. Emptying it removes the key (a default is never written by accident); a list
 * item keeps an empty string instead, since removing it would shift the items after it.
 */
export function TextField({ path, label, placeholder, required, labelHidden, hint, className }: TextFieldProps) {
  const value = useValueAt(path)
  const isListItem = typeof path.at(-1) === 'number'
  // A value of another type (a number where a path belongs) is shown as JSON; its error says why.
  const text = typeof value === 'string' ? value : value === undefined ? '' : JSON.stringify(value)
  return (
    <FieldFrame path={path} label={label} required={required} labelHidden={labelHidden} hint={hint} className={className}>
      {(control) => (
        <input
          {...control}
          type="text"
          value={text}
          placeholder={placeholder}
          spellCheck={false}
          autoComplete="off"
          onChange={(event) => setField(path, event.target.value === '' && !isListItem ? undefined : event.target.value)}
        />
      )}
    </FieldFrame>
  )
}
