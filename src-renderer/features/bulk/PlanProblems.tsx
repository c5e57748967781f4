import type { BulkPlan } from '../../../src-shared/ipc/bulk-calls'
import { countFormat } from '../../lib/count-format'

interface PlanProblemsProps {
  plan: BulkPlan
  fileName: string | undefined
  planning: boolean
  onLeaveOut(): void
}

/**
 * The problems main found in the file, by line and column. Until they are fixed in the file or
 * left out the plan has no run, so nothing can be sent.
 */
export function PlanProblems({ plan, fileName, planning, onLeaveOut }: PlanProblemsProps) {
  return (
    <div className="stack" role="region" aria-label="Problems in the file">
      <p className="callout callout--warning" role="alert">
        {fileName} has {countFormat.format(plan.problemCount)} {plan.problemCount === 1 ? 'problem' : 'problems'}
        {plan.runId
          ? `, left out: ${countFormat.format(plan.planned.total)} valid rows are planned.`
          : `. Nothing is sent until ${plan.problemCount === 1 ? 'it is' : 'they are'} fixed in the file, or left out.`}
      </p>
      <div className="table-wrap bulk-problems" tabIndex={0} role="region" aria-label="Problems, scrollable">
        <table className="table" aria-label="Problems">
          <thead>
            <tr>
              <th scope="col" className="numeric">
                Line
              </th>
              <th scope="col">Column</th>
              <th scope="col">Problem</th>
            </tr>
          </thead>
          <tbody>
            {plan.problems.map((problem, index) => (
              <tr key={index}>
                <td className="numeric">{problem.line}</td>
                <td>{problem.column ? <code>{problem.column}</code> : '—'}</td>
                <td>{problem.message}</td>
              </tr>
            ))}
          </tbody>
        </table>
      </div>
      {plan.problemCount > plan.problems.length ? <p className="muted">The first {plan.problems.length} are shown.</p> : null}
      {!plan.runId ? (
        <div className="row">
          <button type="button" className="btn" disabled={plan.planned.total === 0 || planning} onClick={onLeaveOut}>
            Leave the {countFormat.format(plan.problemCount)} out and plan the {countFormat.format(plan.planned.total)} valid rows
          </button>
        </div>
      ) : null}
    </div>
  )
}
