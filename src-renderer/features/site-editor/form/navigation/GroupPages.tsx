import { memo } from 'react'
import { plural } from '../../../../../src-shared/text/plural'
import { toast } from '../../../../ui/toasts'
import { openDialog } from '../../state/dialog-store'
import { editValue, useEditor } from '../../state/editor-store'
import { chooseRules } from '../../state/file-commands'
import { getIn, isObject, type Path } from '../../state/json-path'
import { flattenNestedGroup, nestedGroupAt, pagesWithin } from '../../state/navigation-edits'
import { fieldId } from '../../state/view-store'
import { FieldFrame } from '../controls/FieldFrame'
import { ProblemsAt } from '../controls/FormSection'
import { type RemovalQuestion, removeAfterAsking } from '../controls/ItemToolbar'
import { removeListItem } from '../controls/list-actions'
import { ListField } from '../controls/ListField'
import { TextField, WrongTypeValue } from '../controls/TextField'
import { useShapeAt, useValueAt } from '../controls/use-field'
import { DOCS_PAGES_LIST } from './DocsPagesList'

// An expanded group's fields in a site.json or mint.json navigation: its name and its pages, where a page may be a
// nested group.

export function GroupFields({ path }: { path: Path }) {
  return (
    <>
      <TextField path={[...path, 'group']} label="Group name" required placeholder="Get started" />
      <PagesList path={[...path, 'pages']} />
    </>
  )
}

/** What removing a nested group asks: it takes its pages with it. Null for a page, which goes at once. */
function nestedGroupRemoval(item: unknown): RemovalQuestion | null {
  if (!isObject(item) || !Array.isArray(item.pages)) return null
  const name = typeof item.group === 'string' && item.group.trim() ? `“${item.group}”` : 'without a name'
  const pages = pagesWithin(item.pages).length
  return {
    title: 'Remove this nested group?',
    body: `The nested group ${name} goes with the ${plural(pages, 'page')} it lists. To keep the pages, flatten it into the parent instead. Undo (Ctrl+Z) brings it back.`,
  }
}

/**
 * A group's pages. Under the Mintlify-compatible rules a page may be a group in turn, edited by
 * the same fields, as deep as the file goes; under the site.json spec (docs/site-json.md,
 * navigation items) such a group is shown as it is, with the ways to settle it (see NestedGroupUnderSpec). Removing a
 * nested group asks first.
 */
function PagesList({ path }: { path: Path }) {
  const nested = useEditor((state) => state.document?.rules === 'mintlify')
  return (
    <ListField
      path={path}
      legend="Pages"
      noun="page"
      layout="row"
      removeWhenEmpty={false}
      removalQuestion={nestedGroupRemoval}
      newItem={() => ''}
      otherItems={
        nested
          ? [{ noun: 'nested group', newItem: () => ({ group: '', pages: [] }), focusInNewItem: (itemPath) => [...itemPath, 'group'] }]
          : undefined
      }
      renderItem={(itemPath, index) => <PageItem path={itemPath} index={index} nested={nested} />}
    />
  )
}

const PageItem = memo(function PageItem({ path, index, nested }: { path: Path; index: number; nested: boolean }) {
  const shape = useShapeAt(path)
  if (shape === 'object' && nested) {
    return (
      <fieldset className="nested-group" id={fieldId(path)} tabIndex={-1}>
        <legend className="object-fieldset__legend">Nested group</legend>
        <ProblemsAt path={path} />
        <GroupFields path={path} />
      </fieldset>
    )
  }
  if (shape === 'object') return <NestedGroupUnderSpec path={path} index={index} />
  return (
    <div className="page-row">
      <TextField path={path} label={`Page ${index + 1}`} labelHidden placeholder="introduction" list={DOCS_PAGES_LIST} />
      {shape === 'other' ? <MovePageButton path={path} index={index} /> : null}
    </div>
  )
})

/**
 * A nested group where the site.json spec (docs/site-json.md) wants a page: shown as it is,
 * never typed over, with the three ways to settle it. Flatten puts its pages in its place; the
 * Mintlify-compatible rules accept it as it is; Remove asks, since its pages go with it.
 */
function NestedGroupUnderSpec({ path, index }: { path: Path; index: number }) {
  const value = useValueAt(path)
  const label = `Page ${index + 1}`
  if (!isObject(value) || !Array.isArray(value.pages)) {
    // Another object: only its Replace button turns it into text.
    return <TextField path={path} label={label} labelHidden />
  }
  const flatten = () => {
    const group = nestedGroupAt(useEditor.getState().value, path)
    if (!group) return
    editValue((current) => flattenNestedGroup(current, path))
    const pages = pagesWithin(group.pages).length
    toast.success(
      `Flattened ${group.name ? `“${group.name}”` : 'the nested group'}: its ${plural(pages, 'page')} now stand${pages === 1 ? 's' : ''} in its place. Undo (Ctrl+Z) brings the group back.`,
    )
  }
  const remove = () => {
    const list = useEditor.getState().value
    const length = (getIn(list, path.slice(0, -1)) as unknown[] | undefined)?.length ?? 0
    removeAfterAsking(nestedGroupRemoval(value), () => removeListItem(path.slice(0, -1), index, length, false))
  }
  return (
    <FieldFrame path={path} label={label} labelHidden>
      {(control) => (
        <div className="wrong-type wrong-type--nested">
          <WrongTypeValue control={control} value={value} />
          <span className="wrong-type__actions">
            <button type="button" className="btn btn--small" aria-describedby={control.id} onClick={flatten}>
              Flatten into the parent
            </button>
            <button type="button" className="btn btn--small" aria-describedby={control.id} onClick={() => void chooseRules('mintlify')}>
              Use Mintlify rules for this file
            </button>
            <button type="button" className="btn btn--small btn--danger" aria-describedby={control.id} onClick={remove}>
              Remove…
            </button>
          </span>
        </div>
      )}
    </FieldFrame>
  )
}

function MovePageButton({ path, index }: { path: Path; index: number }) {
  const page = useValueAt(path)
  if (typeof page !== 'string' || !page) return null
  return (
    <button
      type="button"
      className="icon-button"
      aria-label={`Move page ${index + 1} to another group`}
      title="Move to another group"
      onClick={() => openDialog({ kind: 'placePage', page, from: path })}
    >
      ⇄
    </button>
  )
}
