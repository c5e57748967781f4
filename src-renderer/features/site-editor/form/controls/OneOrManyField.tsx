import { editValue } from '../../state/editor-store'
import { getIn, type Path, setIn } from '../../state/json-path'
import { fieldId } from '../../state/view-store'
import { ListField } from './ListField'
import { TextField } from './TextField'
import { focusSoon, useShapeAt } from './use-field'
import { WrongShapeNote } from './WrongShapeNote'

interface OneOrManyFieldProps {
  path: Path
  label: string
  noun: string
  placeholder?: string
}

/**
 * A setting that is one string or a list of them (api.baseUrl, openapi). It keeps the shape the
 * file has: one value stays a string until another is added, and a list stays a list.
 */
export function OneOrManyField({ path, label, noun, placeholder }: OneOrManyFieldProps) {
  const shape = useShapeAt(path)
  if (shape === 'object') return <WrongShapeNote id={fieldId(path)} what={label} />
  if (shape === 'list') {
    return (
      <ListField
        path={path}
        legend={label}
        noun={noun}
        layout="row"
        removeWhenEmpty
        newItem={() => ''}
        renderItem={(itemPath, index) => (
          <TextField path={itemPath} label={`${label}, ${noun} ${index + 1}`} labelHidden placeholder={placeholder} />
        )}
      />
    )
  }
  const addAnother = () => {
    editValue((value) => setIn(value, path, [getIn(value, path), '']))
    focusSoon(fieldId([...path, 1]))
  }
  return (
    <div className="one-or-many">
      <TextField path={path} label={label} placeholder={placeholder} />
      {shape === 'other' ? (
        <button type="button" className="btn btn--small btn--ghost one-or-many__add" onClick={addAnother}>
          Add another {noun}
        </button>
      ) : null}
    </div>
  )
}
