import { useState } from 'react'
import { LogoPathsSchema, MintConfigSchema } from '../../../../../src-shared/site-config/mint-schema'
import { editValue } from '../../state/editor-store'
import { getIn, isObject, setIn } from '../../state/json-path'
import { fieldId } from '../../state/view-store'
import { FormSection, ProblemsAt } from '../controls/FormSection'
import { TextField } from '../controls/TextField'
import { useShapeAt } from '../controls/use-field'
import { WrongShapeNote } from '../controls/WrongShapeNote'
import { meaningOf, placeholderOf } from '../schema-hints'

export function ProjectSection() {
  return (
    <FormSection id="project" title="Project">
      <div className="form-grid">
        <TextField path={['name']} label="Project name" required placeholder="My docs" hint={meaningOf(MintConfigSchema.shape.name)} />
        <TextField path={['favicon']} label="Favicon" placeholder="/favicon.svg" hint={meaningOf(MintConfigSchema.shape.favicon)} />
      </div>
      <LogoField />
      <TextField
        path={['backgroundImage']}
        label="Background image"
        placeholder="/background.png"
        hint={meaningOf(MintConfigSchema.shape.backgroundImage)}
      />
    </FormSection>
  )
}

type LogoForm = 'none' | 'single' | 'pair'

const LOGO_FORMS: { form: LogoForm; label: string }[] = [
  { form: 'none', label: 'No logo' },
  { form: 'single', label: 'One image' },
  { form: 'pair', label: 'Light and dark images' },
]

/** Turns the logo into another form without losing the path typed: one image becomes both of a pair. */
function convertLogo(value: unknown, form: LogoForm): unknown {
  const logo = getIn(value, ['logo'])
  if (form === 'none') return setIn(value, ['logo'], undefined)
  if (form === 'single') return isObject(logo) && typeof logo.light === 'string' ? setIn(value, ['logo'], logo.light) : value
  return typeof logo === 'string' ? setIn(value, ['logo'], { light: logo, dark: logo }) : value
}

/**
 * The logo is a path or a light/dark pair. Choosing a form writes nothing by itself; the fields
 * of that form create the key when typed into.
 */
export function LogoField() {
  const shape = useShapeAt(['logo'])
  const [chosen, setChosen] = useState<LogoForm>('none')
  const form: LogoForm = shape === 'object' ? 'pair' : shape === 'other' ? 'single' : chosen

  const choose = (next: LogoForm) => {
    setChosen(next)
    editValue((value) => convertLogo(value, next))
  }

  return (
    // In the one-image form the path's own field carries the id and the problems.
    <fieldset className="object-fieldset" id={form === 'single' ? undefined : fieldId(['logo'])} tabIndex={-1}>
      <legend className="object-fieldset__legend">Logo</legend>
      <div className="segmented">
        {LOGO_FORMS.map((option) => (
          <label key={option.form} className="segmented__option">
            <input type="radio" name="logo-form" checked={form === option.form} onChange={() => choose(option.form)} />
            {option.label}
          </label>
        ))}
      </div>
      {shape === 'list' ? <WrongShapeNote id={`${fieldId(['logo'])}:note`} what="Logo" /> : null}
      {form === 'single' ? <TextField path={['logo']} label="Logo image" placeholder="/logo.svg" /> : <ProblemsAt path={['logo']} />}
      {form === 'pair' ? (
        <div className="form-grid">
          <TextField path={['logo', 'light']} label="Logo in light mode" required placeholder="/logo/light.svg" />
          <TextField path={['logo', 'dark']} label="Logo in dark mode" required placeholder="/logo/dark.svg" />
          <TextField
            path={['logo', 'href']}
            label="Logo link"
            placeholder={placeholderOf(LogoPathsSchema.shape.href)}
            hint={meaningOf(LogoPathsSchema.shape.href)}
          />
        </div>
      ) : null}
    </fieldset>
  )
}
