import type { Path } from '../../state/json-path'
import { ListField, nameOfItem } from './ListField'
import { TextField } from './TextField'

interface NamedLinkListFieldProps {
  path: Path
  legend: string
  /** What one item is called, in labels and buttons: "tab" gives "Tab name", "Add tab". */
  noun: string
  namePlaceholder: string
  urlPlaceholder: string
  urlHint?: string
}

const capitalized = (word: string) => word.charAt(0).toUpperCase() + word.slice(1)

/** A list of `{ name, url }` items, both required: the shape of tabs and of top-bar links. */
export function NamedLinkListField({ path, legend, noun, namePlaceholder, urlPlaceholder, urlHint }: NamedLinkListFieldProps) {
  const label = capitalized(noun)
  return (
    <ListField
      path={path}
      legend={legend}
      noun={noun}
      layout="card"
      removeWhenEmpty
      newItem={() => ({ name: '', url: '' })}
      focusInNewItem={(itemPath) => [...itemPath, 'name']}
      titleOf={nameOfItem}
      renderItem={(itemPath) => (
        <div className="form-grid">
          <TextField path={[...itemPath, 'name']} label={`${label} name`} required placeholder={namePlaceholder} />
          <TextField
            path={[...itemPath, 'url']}
            label={`${label} URL`}
            required
            placeholder={urlPlaceholder}
            {...(urlHint ? { hint: urlHint } : {})}
          />
        </div>
      )}
    />
  )
}
