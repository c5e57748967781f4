import { useState } from 'react'
import { AnchorSchema, ICON_TYPES, TopAnchorSchema } from '../../../../../src-shared/site-config/mint-schema'
import { editValue } from '../../state/editor-store'
import { getIn, isObject, type Path, setIn } from '../../state/json-path'
import { fieldId } from '../../state/view-store'
import { ChoiceField, choicesOf, YES_NO } from '../controls/ChoiceField'
import { ColorField } from '../controls/ColorField'
import { FormSection, ObjectFieldset, ProblemsAt } from '../controls/FormSection'
import { ListField, nameOfItem } from '../controls/ListField'
import { TextField } from '../controls/TextField'
import { useShapeAt, useValueAt } from '../controls/use-field'
import { placeholderOf, unsetLabelOf } from '../schema-hints'

export function AnchorsSection() {
  return (
    <FormSection id="anchors" title="Anchors" description="Links at the top of the side navigation, each with an icon.">
      <ListField
        path={['anchors']}
        legend="Anchors"
        noun="anchor"
        layout="card"
        removeWhenEmpty
        newItem={() => ({ name: '', url: '' })}
        focusInNewItem={(itemPath) => [...itemPath, 'name']}
        titleOf={nameOfItem}
        renderItem={(itemPath) => <AnchorFields path={itemPath} />}
      />
      <ObjectFieldset path={['topAnchor']} legend="Top anchor" hint="Overrides of the top-most anchor.">
        <TextField path={['topAnchor', 'name']} label="Top anchor name" placeholder={placeholderOf(TopAnchorSchema.shape.name)} />
        <TextField path={['topAnchor', 'icon']} label="Top anchor icon" placeholder={placeholderOf(TopAnchorSchema.shape.icon)} />
        <ChoiceField
          path={['topAnchor', 'iconType']}
          label="Top anchor icon style"
          choices={choicesOf(ICON_TYPES)}
          unsetLabel={unsetLabelOf(TopAnchorSchema.shape.iconType)}
        />
      </ObjectFieldset>
    </FormSection>
  )
}

function AnchorFields({ path }: { path: Path }) {
  return (
    <div className="form-grid">
      <TextField path={[...path, 'name']} label="Anchor name" required placeholder="API reference" />
      <TextField path={[...path, 'url']} label="Anchor URL" required placeholder="api-reference" hint="The folder its pages are in." />
      <TextField path={[...path, 'icon']} label="Icon" placeholder="code" />
      <ChoiceField
        path={[...path, 'iconType']}
        label="Icon style"
        choices={choicesOf(ICON_TYPES)}
        unsetLabel={unsetLabelOf(AnchorSchema.shape.iconType)}
      />
      <AnchorVersionField path={[...path, 'version']} />
      <ChoiceField
        path={[...path, 'isDefaultHidden']}
        label="Hidden until linked to"
        choices={YES_NO}
        unsetLabel={unsetLabelOf(AnchorSchema.shape.isDefaultHidden)}
      />
      <AnchorColorField path={[...path, 'color']} />
    </div>
  )
}

/** The versions the dropdown offers; a version not among them is kept and flagged by its warning. */
function AnchorVersionField({ path }: { path: Path }) {
  const versions = useValueAt(['versions'])
  const names = Array.isArray(versions) ? versions.filter((name): name is string => typeof name === 'string') : []
  return (
    <ChoiceField
      path={path}
      label="Version"
      choices={choicesOf(names)}
      unsetLabel="Every version"
      describeOther={(value) => `${typeof value === 'string' ? value : JSON.stringify(value)} (not in versions)`}
      hint={names.length ? undefined : 'Add versions in the Versions section to tie an anchor to one.'}
    />
  )
}

type ColorForm = 'none' | 'solid' | 'gradient'

function convertColor(value: unknown, path: Path, form: ColorForm): unknown {
  const color = getIn(value, path)
  if (form === 'none') return setIn(value, path, undefined)
  if (form === 'solid') return isObject(color) ? setIn(value, path, typeof color.from === 'string' ? color.from : undefined) : value
  if (isObject(color)) return value
  return setIn(value, path, { from: typeof color === 'string' ? color : '#0D9373', to: typeof color === 'string' ? color : '#07C983' })
}

/** One colour or a from/to gradient for the icon's background. */
function AnchorColorField({ path }: { path: Path }) {
  const shape = useShapeAt(path)
  // "One colour" writes nothing until a colour is typed or picked, so the choice is held here meanwhile.
  const [chosen, setChosen] = useState<ColorForm>('none')
  const form: ColorForm = shape === 'object' ? 'gradient' : shape === 'missing' ? chosen : 'solid'
  const choose = (next: ColorForm) => {
    setChosen(next)
    editValue((value) => convertColor(value, path, next))
  }
  const name = `${fieldId(path)}:form`
  return (
    <fieldset className="object-fieldset anchor-color" id={form === 'solid' ? undefined : fieldId(path)} tabIndex={-1}>
      <legend className="object-fieldset__legend">Icon colour</legend>
      <div className="segmented">
        {(['none', 'solid', 'gradient'] as const).map((option) => (
          <label key={option} className="segmented__option">
            <input type="radio" name={name} checked={form === option} onChange={() => choose(option)} />
            {option === 'none' ? 'Default' : option === 'solid' ? 'One colour' : 'Gradient'}
          </label>
        ))}
      </div>
      {form === 'solid' ? <ColorField path={path} label="Icon colour" /> : <ProblemsAt path={path} />}
      {form === 'gradient' ? (
        <div className="form-grid">
          <ColorField path={[...path, 'from']} label="Gradient from" required />
          <ColorField path={[...path, 'to']} label="Gradient to" required />
        </div>
      ) : null}
    </fieldset>
  )
}
