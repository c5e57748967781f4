import type { BulkTallies } from '../../../src-shared/bulk/schemas'
import { plural } from '../../../src-shared/text/plural'
import { countFormat } from '../../lib/count-format'
import { OUTCOME_LABELS } from './run-outcomes'

/** How many rows ended each way (failed always shown), and what an unknown rotation means. */
export function RunTallies({ tallies }: { tallies: BulkTallies }) {
  return (
    <>
      <dl className="bulk-tallies">
        {(['created', 'updated', 'unchanged', 'rotated', 'failed', 'unknown', 'skipped'] as const)
          .filter((key) => tallies[key] > 0 || key === 'failed')
          .map((key) => (
            <div key={key}>
              <dt>{OUTCOME_LABELS[key]}</dt>
              <dd>{countFormat.format(tallies[key])}</dd>
            </div>
          ))}
        <div>
          <dt>Not sent yet</dt>
          <dd>{countFormat.format(tallies.pending)}</dd>
        </div>
      </dl>
      {tallies.unknown > 0 ? (
        <p className="callout callout--warning" role="alert">
          {plural(tallies.unknown, 'rotation')} may or may not have happened: the answer was lost. They are never sent again on their own:
          Check now in Activity (or fetch the group) tells whether each happened, and keeps the server’s token.
        </p>
      ) : null}
    </>
  )
}
