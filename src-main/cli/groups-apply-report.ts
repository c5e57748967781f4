import type { BulkKind, BulkProblem, BulkProgress, BulkRunState, BulkTallies } from '../../src-shared/bulk/schemas'
import { plural } from '../../src-shared/text/plural'
import type { AppServices } from '../app-services'
import type { PlanAnswer } from '../bulk/bulk-service'
import type { CliIo, JsonEnvelope } from './usage'

/*
 * What `groups apply` prints. With --json, standard output is JSON Lines (problems, progress,
 * rows that did not succeed) ending with the CLI's one envelope, and nothing is said on standard
 * error; without it, sentences for a person, a progress bar on a terminal.
 */

/** Where the command prints, and how. */
export interface ApplyOutput {
  io: CliIo
  json: boolean
  /** The input file's name, as its rows are named (`groups.csv:12`). */
  fileName: string
}

/** A sentence for a person, on standard error; nothing with --json. */
export const say = (out: ApplyOutput, sentence: string) => (out.json ? undefined : out.io.stderr(sentence))

/** The last line of a JSON Lines run: the CLI's one envelope, on one line. */
export const envelope = <T>(io: CliIo, value: JsonEnvelope<T>) => io.stdout(JSON.stringify(value))

/** A rotation's row skipped because the token kept here is not the group's current one (see claimRefusal). */
const STALE = /fetch the current token first/

const problemLine = (file: string, problem: BulkProblem) =>
  `${file}:${problem.line}${problem.column ? ` (${problem.column})` : ''}: ${problem.message}`

type Summary = Pick<BulkTallies, 'created' | 'updated' | 'unchanged' | 'failed'> & Partial<BulkTallies>

const summarySentence = (summary: Summary) =>
  `created ${summary.created}, updated ${summary.updated}, unchanged ${summary.unchanged}, failed ${summary.failed}` +
  `${summary.rotated ? `, rotated ${summary.rotated}` : ''}${summary.unknown ? `, outcome unknown ${summary.unknown}` : ''}${summary.skipped ? `, skipped ${summary.skipped}` : ''}` +
  `${summary.pending ? `, not sent ${summary.pending}` : ''}`

/** A bar on a terminal, redrawn in place; JSON lines anywhere else. */
export function progressPrinter(io: CliIo, json: boolean) {
  const tty = !json && io.tty
  return (progress: BulkProgress) => {
    if (!tty) return io.stdout(JSON.stringify({ event: 'progress', ...progress }))
    const width = Math.max(10, Math.min(40, tty.columns - 60))
    const filled = progress.total ? Math.round((progress.done / progress.total) * width) : width
    const eta = progress.etaSeconds === null ? '' : ` · ${Math.ceil(progress.etaSeconds)} s left`
    const waiting = progress.waitingUntil ? ' · server asked to wait' : ''
    tty.write(
      `\r[${'#'.repeat(filled)}${'.'.repeat(width - filled)}] ${progress.done}/${progress.total}` +
        ` · ${progress.failed} failed · ${progress.retried} retried · ${progress.ratePerMinute}/min${eta}${waiting}\x1b[K`,
    )
  }
}

/**
 * The plan's problems, each by line (and column). With --exclude-invalid they are left out and
 * the plan goes on; without it the file is refused, saying so: then this answers true.
 */
export function printPlanProblems(out: ApplyOutput, plan: PlanAnswer, excludeInvalid: boolean): boolean {
  const { io, json, fileName } = out
  for (const problem of plan.problems)
    (json ? io.stdout : io.stderr)(json ? JSON.stringify({ event: 'problem', ...problem }) : problemLine(fileName, problem))
  if (plan.problemCount > plan.problems.length) say(out, `… and ${plan.problemCount - plan.problems.length} more problems.`)
  if (plan.problemCount === 0 || excludeInvalid) return false
  const valid = plan.planned.total
  const sentence = `${fileName} has ${plural(plan.problemCount, 'problem')}: fix ${plan.problemCount === 1 ? 'it' : 'them'}, or add --exclude-invalid to send the ${plural(valid, 'valid row')}.`
  if (json) envelope(io, { ok: false, error: { code: 'invalid_input', message: sentence, details: { problems: plan.problemCount } } })
  else io.stderr(sentence)
  return true
}

/** --dry-run: what the plan would send, and that nothing was. */
export function printDryRun(out: ApplyOutput, plan: PlanAnswer, kind: BulkKind): void {
  const { io, fileName } = out
  const { create, update, unchanged, rotate } = plan.planned
  if (out.json) {
    envelope(io, {
      ok: true,
      value: { dryRun: true, planned: { create, update, unchanged, rotate }, created: 0, updated: 0, unchanged, failed: 0 },
    })
    return
  }
  io.stdout(
    `Plan for ${fileName} (${plan.planned.total} rows${plan.problemCount ? `, ${plan.problemCount} left out` : ''}): ${kind === 'rotate' ? `rotate ${rotate}` : `create ${create}, update ${update}, unchanged ${unchanged}`}. Nothing was sent.`,
  )
  io.stdout(`Dry run: ${summarySentence({ created: 0, updated: 0, unchanged, failed: 0 })}.`)
}

export interface RunEnd {
  services: AppServices
  runId: string
  /** Where the run came to rest in this process: finished, cancelled or paused. */
  state: BulkRunState
  kind: BulkKind
  /** The --profile given, for the command that fetches stale tokens. */
  profile?: string
}

/** The rows that did not succeed (the first 50 failed and 50 unknown), each by line; how many more there are. */
function printUnsuccessfulRows(out: ApplyOutput, { services, runId }: RunEnd, tallies: BulkTallies): void {
  const { io, json, fileName } = out
  const unsuccessful = services.bulk
    .items(runId, { outcome: 'failed' }, 0, 50)
    .items.concat(services.bulk.items(runId, { outcome: 'unknown' }, 0, 50).items)
  for (const item of unsuccessful) {
    if (json)
      io.stdout(
        JSON.stringify({
          event: 'row',
          line: item.line,
          user_group_id: item.groupId,
          outcome: item.outcome,
          httpStatus: item.httpStatus,
          message: item.message,
        }),
      )
    else
      io.stderr(
        `${fileName}:${item.line} ${item.groupId}: ${item.outcome === 'unknown' ? 'outcome unknown' : 'failed'}: ${item.message ?? ''}`,
      )
  }
  const notShown = tallies.failed + tallies.unknown - unsuccessful.length
  if (notShown > 0) say(out, `… and ${notShown} more rows that did not succeed.`)
}

/** Rows a colleague's rotation made stale here: one command brings their tokens current. */
function staleRowsSentence(out: ApplyOutput, { services, runId, kind, profile }: RunEnd): string | null {
  if (kind !== 'rotate') return null
  const stale = services.bulk.items(runId, { outcome: 'skipped' }, 0, 1_000).items.filter((item) => STALE.test(item.message ?? '')).length
  if (!stale) return null
  return `${plural(stale, 'row')} ${stale === 1 ? 'was' : 'were'} skipped because the token kept here is no longer the group’s: fetch the current tokens with \`embed-console groups apply ${out.fileName} --profile ${JSON.stringify(profile)} --fetch\`, then run the rotation again.`
}

/**
 * The end of a run in this process: the rows that did not succeed, then the counts (and why the
 * run paused itself, if it did). Answers the exit code: 0 when every row succeeded, 1 otherwise.
 */
export function printRunEnd(out: ApplyOutput, end: RunEnd): number {
  const { io } = out
  const { services, runId, state } = end
  const tallies = services.bulk.tallies(runId)
  printUnsuccessfulRows(out, end, tallies)
  const ok = state === 'finished' && tallies.failed === 0 && tallies.unknown === 0
  // The run paused itself (the server stopped answering, --bail, a full disk): say why.
  const pausedReason = state === 'paused' ? services.bulk.run(runId).pausedReason : null
  const counts = { runId, state, ...tallies, ...(pausedReason ? { pausedReason } : {}) }
  if (out.json) {
    const unfinished =
      state === 'finished'
        ? `${tallies.failed + tallies.unknown} rows did not succeed`
        : `${pausedReason ? `${pausedReason} ` : ''}The run stopped with ${tallies.pending} rows not sent: resume it with --resume`
    envelope(
      io,
      ok
        ? { ok: true, value: counts }
        : {
            ok: false,
            error: {
              code: state === 'finished' ? 'api_failure' : 'paused',
              message: `${unfinished} (${summarySentence(tallies)}).`,
              details: counts,
            },
          },
    )
  } else {
    if (pausedReason) io.stderr(pausedReason)
    const stale = staleRowsSentence(out, end)
    if (stale) io.stderr(stale)
    if (state !== 'finished') io.stdout(`Stopped with ${tallies.pending} rows not sent: run the same command with --resume to go on.`)
    io.stdout(`${state === 'finished' ? 'Done' : 'Stopped'}: ${summarySentence(tallies)}.`)
  }
  return ok ? 0 : 1
}
