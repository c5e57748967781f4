import type { BulkKind } from '../../../src-shared/bulk/schemas'

/** What the file does: get-or-create and update groups, or rotate their tokens. */
export function RunKindChoice({ kind, onChoose }: { kind: BulkKind; onChoose(kind: BulkKind): void }) {
  return (
    <fieldset className="choice">
      <legend>What the file does</legend>
      <label>
        <input type="radio" name="bulk-kind" checked={kind === 'apply'} onChange={() => onChoose('apply')} /> Get or create, and update
        groups
      </label>
      <label>
        <input type="radio" name="bulk-kind" checked={kind === 'rotate'} onChange={() => onChoose('rotate')} /> Rotate the tokens of listed
        groups
      </label>
    </fieldset>
  )
}
