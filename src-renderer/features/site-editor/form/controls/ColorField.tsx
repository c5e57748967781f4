import { useCallback, useRef, useState } from 'react'
import { HexColorPicker } from 'react-colorful'
import { isHexColor } from '../../preview/theme-colors'
import { setField } from '../../state/editor-store'
import type { Path } from '../../state/json-path'
import { FieldFrame } from './FieldFrame'
import { TextField } from './TextField'
import { useDismiss } from './use-dismiss'
import { useValueAt } from './use-field'

interface ColorFieldProps {
  path: Path
  label: string
  required?: boolean
  placeholder?: string
}

/** The picker answers lowercase #rrggbb; a file written in capitals stays in capitals. */
const inCaseOf = (picked: string, current: string) => (/[A-F]/.test(current) ? picked.toUpperCase() : picked)

/** A hex colour: typed, pasted, or picked with react-colorful in a popover beside a swatch. */
export function ColorField({ path, label, required, placeholder = '#0D9373' }: ColorFieldProps) {
  const value = useValueAt(path)
  const text = typeof value === 'string' ? value : ''
  const [pickerOpen, setPickerOpen] = useState(false)
  const area = useRef<HTMLDivElement>(null)
  const close = useCallback(() => setPickerOpen(false), [])
  useDismiss(area, pickerOpen, close)
  const valid = isHexColor(text)
  // A value that is not text is shown as it is, and replaced only on request.
  if (value !== undefined && typeof value !== 'string') return <TextField path={path} label={label} required={required} />

  return (
    <FieldFrame path={path} label={label} required={required}>
      {(control) => (
        <div className="color-input" ref={area}>
          <button
            type="button"
            className={`color-input__swatch${valid ? '' : ' color-input__swatch--empty'}`}
            style={valid ? { background: text } : undefined}
            aria-label={`Pick the ${label.toLowerCase()} colour`}
            aria-expanded={pickerOpen}
            aria-controls={pickerOpen ? `${control.id}:picker` : undefined}
            onClick={() => setPickerOpen((open) => !open)}
          />
          <input
            {...control}
            type="text"
            className="color-input__text"
            value={text}
            placeholder={placeholder}
            spellCheck={false}
            autoComplete="off"
            onChange={(event) => setField(path, event.target.value === '' ? undefined : event.target.value)}
          />
          {pickerOpen ? (
            <div id={`${control.id}:picker`} className="color-input__popover" role="group" aria-label={`${label} colour picker`}>
              {/* An empty field starts from its placeholder: picking from black, a hue change would stay black. */}
              <HexColorPicker
                color={valid ? text : isHexColor(placeholder) ? placeholder : '#808080'}
                onChange={(picked) => setField(path, inCaseOf(picked, text))}
              />
            </div>
          ) : null}
        </div>
      )}
    </FieldFrame>
  )
}
