import type { ReactNode } from 'react'
import { setField } from '../../state/editor-store'
import type { Path } from '../../state/json-path'
import { FieldFrame } from './FieldFrame'
import { useValueAt } from './use-field'

export interface Choice {
  value: string | boolean
  label: string
}

export const YES_NO: readonly Choice[] = [
  { value: true, label: 'Yes' },
  { value: false, label: 'No' },
]

export const choicesOf = (values: readonly string[]): Choice[] => values.map((value) => ({ value, label: value }))

interface ChoiceFieldProps {
  path: Path
  label: string
  choices: readonly Choice[]
  /** The first option, which removes the key: it names the default that then applies. */
  unsetLabel: string
  hint?: ReactNode
  /** How a value outside the choices is shown (it stays selected until another is picked). */
  describeOther?: (value: unknown) => string
}

const UNSET = ''
const CURRENT = 'current'

/** An enum or a boolean as a select. "Not set" is a choice of its own, so a default is never written by accident. */
export function ChoiceField({
  path,
  label,
  choices,
  unsetLabel,
  hint,
  describeOther = (value) => `${JSON.stringify(value)} (not allowed)`,
}: ChoiceFieldProps) {
  const value = useValueAt(path)
  const index = choices.findIndex((choice) => choice.value === value)
  const selected = value === undefined ? UNSET : index >= 0 ? String(index) : CURRENT
  return (
    <FieldFrame path={path} label={label} hint={hint}>
      {(control) => (
        <select
          {...control}
          value={selected}
          onChange={(event) => {
            const picked = event.target.value
            if (picked === CURRENT) return
            setField(path, picked === UNSET ? undefined : choices[Number(picked)]!.value)
          }}
        >
          <option value={UNSET}>{unsetLabel}</option>
          {choices.map((choice, position) => (
            <option key={position} value={String(position)}>
              {choice.label}
            </option>
          ))}
          {selected === CURRENT ? <option value={CURRENT}>{describeOther(value)}</option> : null}
        </select>
      )}
    </FieldFrame>
  )
}
