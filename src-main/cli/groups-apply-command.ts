import { open } from 'node:fs/promises'
import { basename } from 'node:path'
import { parseArgs } from 'node:util'
import { decodeInput, INPUT_ENCODINGS, type InputEncoding } from '../../src-shared/bulk/decode'
import {
  type BulkKind,
  type BulkProblem,
  type BulkProgress,
  type BulkSettings,
  type BulkTallies,
  DEFAULT_BULK_CONCURRENCY,
  defaultRateFor,
  MAX_BULK_CONCURRENCY,
  MAX_BULK_FILE_CHARACTERS,
} from '../../src-shared/bulk/schemas'
import { messageOf } from '../../src-shared/ipc/error-message'
import { AppErrorException } from '../../src-shared/ipc/result'
import { isLoopbackHostname } from '../../src-shared/net/loopback'
import { BaseUrlSchema } from '../../src-shared/profiles/schemas'
import { plural } from '../../src-shared/text/plural'
import { createAppServices } from '../app-services'
import type { BulkTarget } from '../bulk/bulk-service'
import { defaultDataDir } from '../data-dir'
import { createUserApiClient } from '../user-api/client'
import { refuseSystemPath } from '../user-files/system-folders'
import { type CliIo, type JsonEnvelope, profileNamed, pullFirst, reportLeftBehind, TOKEN_ENV, UsageError } from './usage'

/** Reads the input file: a regular file, never more than the largest run takes, decoded as it was written (see decodeInput). */
async function readInput(path: string, encoding: InputEncoding): Promise<string> {
  let handle
  try {
    await refuseSystemPath(path)
  } catch (error) {
    throw new UsageError(messageOf(error))
  }
  try {
    handle = await open(path, 'r')
  } catch {
    throw new UsageError(`${path} cannot be read.`)
  }
  try {
    const info = await handle.stat()
    if (!info.isFile()) throw new UsageError(`${path} is not a regular file.`)
    if (info.size > MAX_BULK_FILE_CHARACTERS * 4) throw new UsageError(`${path} is larger than a run takes: split it.`)
    const decoded = decodeInput(await handle.readFile(), basename(path), encoding)
    if (!decoded.ok) throw new UsageError(`${decoded.message} (--encoding windows-1252)`)
    const { text } = decoded
    if (text.length > MAX_BULK_FILE_CHARACTERS)
      throw new UsageError(`${path} is larger than ${MAX_BULK_FILE_CHARACTERS / 1024 / 1024} MB: split it.`)
    return text
  } finally {
    await handle.close()
  }
}

function positiveInteger(flag: string, value: string | undefined, max: number): number | undefined {
  if (value === undefined) return undefined
  const number = Number(value)
  if (!Number.isInteger(number) || number < 1 || number > max)
    throw new UsageError(`--${flag} takes a whole number from 1 to ${max.toLocaleString('en')}.`)
  return number
}

/** A rotation's row skipped because the token kept here is not the group's current one (see claimRefusal). */
const STALE = /fetch the current token first/

/** The last line of a JSON Lines run: the CLI's one envelope, on one line. */
const envelope = <T>(io: CliIo, value: JsonEnvelope<T>) => io.stdout(JSON.stringify(value))

const problemLine = (file: string, problem: BulkProblem) =>
  `${file}:${problem.line}${problem.column ? ` (${problem.column})` : ''}: ${problem.message}`

type Summary = Pick<BulkTallies, 'created' | 'updated' | 'unchanged' | 'failed'> & Partial<BulkTallies>

const summarySentence = (summary: Summary) =>
  `created ${summary.created}, updated ${summary.updated}, unchanged ${summary.unchanged}, failed ${summary.failed}` +
  `${summary.rotated ? `, rotated ${summary.rotated}` : ''}${summary.unknown ? `, outcome unknown ${summary.unknown}` : ''}${summary.skipped ? `, skipped ${summary.skipped}` : ''}` +
  `${summary.pending ? `, not sent ${summary.pending}` : ''}`

/** A bar on a terminal, redrawn in place; JSON lines anywhere else. */
function progressPrinter(io: CliIo, json: boolean) {
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

export async function runGroupsApply(argv: string[], io: CliIo): Promise<number> {
  const { values, positionals } = parseArgs({
    args: argv,
    options: {
      profile: { type: 'string' },
      'base-url': { type: 'string' },
      'dry-run': { type: 'boolean', default: false },
      concurrency: { type: 'string' },
      rate: { type: 'string' },
      resume: { type: 'boolean', default: false },
      'exclude-invalid': { type: 'boolean', default: false },
      rotate: { type: 'boolean', default: false },
      fetch: { type: 'boolean', default: false },
      bail: { type: 'boolean', default: false },
      encoding: { type: 'string', default: 'utf-8' },
      json: { type: 'boolean', default: false },
      'data-dir': { type: 'string' },
    },
    allowPositionals: true,
    strict: true,
  })
  if (positionals.length !== 1) throw new UsageError('Name one file to apply: embed-console groups apply FILE …')
  if (Boolean(values.profile) === Boolean(values['base-url'])) throw new UsageError('Give either --profile or --base-url.')
  if (values.rotate && !values.profile)
    throw new UsageError('--rotate needs --profile: the tokens it rotates are the ones kept for that profile.')
  if (values.fetch && (!values.profile || values.rotate || values['dry-run'] || values.resume))
    throw new UsageError(
      '--fetch needs --profile (the tokens it fetches are kept for that profile), and goes alone: not with --rotate, --dry-run or --resume.',
    )
  const file = positionals[0]!
  const kind: BulkKind = values.rotate ? 'rotate' : 'apply'
  const concurrency =
    kind === 'rotate' ? 1 : (positiveInteger('concurrency', values.concurrency, MAX_BULK_CONCURRENCY) ?? DEFAULT_BULK_CONCURRENCY)
  const rate = positiveInteger('rate', values.rate, 100_000)
  let baseUrl: string | undefined
  if (values['base-url']) {
    const parsed = BaseUrlSchema.safeParse(values['base-url'])
    if (!parsed.success) throw new UsageError(`--base-url: ${parsed.error.issues[0]?.message ?? 'not an address'}`)
    baseUrl = parsed.data
  }
  const apiToken = io.env[TOKEN_ENV]
  if (baseUrl && !apiToken)
    throw new UsageError(
      `--base-url needs the API token in the ${TOKEN_ENV} environment variable (never a flag: flags show up in process lists).`,
    )
  if (!(INPUT_ENCODINGS as readonly string[]).includes(values.encoding))
    throw new UsageError(`--encoding takes ${INPUT_ENCODINGS.join(' or ')}.`)
  const text = await readInput(file, values.encoding as InputEncoding)
  const fileName = basename(file)
  const say = (sentence: string) => (values.json ? undefined : io.stderr(sentence))

  const services = await createAppServices({
    dataDir: values['data-dir'] ?? defaultDataDir(io.env),
    transport: 'browser',
    client: 'cli',
    sandbox: false,
  })
  try {
    if (values.profile) await pullFirst(services.team, io)
    const profile = values.profile ? profileNamed(services.profiles, values.profile) : undefined
    if (values.fetch && profile) {
      const { fetchListed, fetchSentence } = await import('./groups-fetch')
      const summary = await fetchListed(services, profile.id, text, fileName, say)
      if (values.json)
        envelope(
          io,
          summary.failed
            ? { ok: false, error: { code: 'api_failure', message: fetchSentence(summary), details: { ...summary } } }
            : { ok: true, value: summary },
        )
      else io.stdout(fetchSentence(summary))
      return summary.failed ? 1 : 0
    }
    const target: BulkTarget = profile ? { profileId: profile.id } : { baseUrl: baseUrl! }
    const targetUrl = profile?.baseUrl ?? baseUrl!
    const settings: BulkSettings = {
      concurrency,
      ratePerMinute: rate ?? defaultRateFor(isLoopbackHostname(new URL(targetUrl).hostname)),
      sendCreate: true,
      sendUpdate: true,
      bail: values.bail,
    }

    const earlier = values['dry-run'] ? undefined : services.bulk.unfinishedRun(text, target)
    // Being sent elsewhere (the app, another terminal): refused with who sends it, resume or not.
    if (earlier?.owner) throw earlier.refusal
    // A plan never started is replaced; one stopped part way is gone on with, never sent afresh.
    let runId = earlier && (earlier.sent || earlier.state !== 'planned') ? earlier.id : undefined
    if (runId && !values.resume) {
      const left = services.bulk.tallies(runId).pending
      throw new UsageError(`An earlier run of ${fileName} stopped with ${plural(left, 'row')} not sent: add --resume to go on from there.`)
    }
    if (runId) say(`Resuming the run of ${fileName}: ${services.bulk.tallies(runId).pending} rows left to send.`)
    else {
      if (values.resume && !values['dry-run']) say(`No unfinished run of ${fileName} was found: starting it afresh.`)
      // A dry run is a plan with the bad rows left out and nothing kept.
      // Planned with the lease held at once: a second process planning the same file now is refused.
      const plan = services.bulk.plan({
        kind,
        target,
        fileName,
        text,
        excludeInvalid: values['exclude-invalid'] && !values['dry-run'],
        settings,
        hold: true,
      })
      for (const problem of plan.problems)
        (values.json ? io.stdout : io.stderr)(
          values.json ? JSON.stringify({ event: 'problem', ...problem }) : problemLine(fileName, problem),
        )
      if (plan.problemCount > plan.problems.length) say(`… and ${plan.problemCount - plan.problems.length} more problems.`)
      const valid = plan.planned.total
      if (plan.problemCount > 0 && !values['exclude-invalid']) {
        const sentence = `${fileName} has ${plural(plan.problemCount, 'problem')}: fix ${plan.problemCount === 1 ? 'it' : 'them'}, or add --exclude-invalid to send the ${plural(valid, 'valid row')}.`
        if (values.json)
          envelope(io, { ok: false, error: { code: 'invalid_input', message: sentence, details: { problems: plan.problemCount } } })
        else io.stderr(sentence)
        return 2
      }
      if (values['dry-run']) {
        const { create, update, unchanged, rotate } = plan.planned
        if (values.json)
          envelope(io, {
            ok: true,
            value: { dryRun: true, planned: { create, update, unchanged, rotate }, created: 0, updated: 0, unchanged, failed: 0 },
          })
        else {
          io.stdout(
            `Plan for ${fileName} (${valid} rows${plan.problemCount ? `, ${plan.problemCount} left out` : ''}): ${kind === 'rotate' ? `rotate ${rotate}` : `create ${create}, update ${update}, unchanged ${unchanged}`}. Nothing was sent.`,
          )
          io.stdout(`Dry run: ${summarySentence({ created: 0, updated: 0, unchanged, failed: 0 })}.`)
        }
        return 0
      }
      if (!plan.runId) throw new UsageError(`${fileName} holds no row to send.`)
      runId = plan.runId
    }

    const client = profile ? undefined : createUserApiClient({ baseUrl: targetUrl, apiToken: apiToken!, env: io.env })
    const runner = services.bulk.launch(runId, settings, { client, onProgress: progressPrinter(io, values.json) })
    // Ctrl+C: take no new row, let the requests in flight finish, keep the run for --resume.
    let interrupts = 0
    const stop = () => {
      interrupts += 1
      if (interrupts > 1) process.exit(130)
      say('\nStopping: the requests in flight finish first. Press Ctrl+C again to quit at once.')
      runner.pause()
    }
    process.on('SIGINT', stop)
    process.on('SIGTERM', stop)
    // Nobody reads the progress any more (`| head`): the run pauses, resumable, rather than going on unseen.
    const unread = io.onStdoutClosed?.(() => {
      io.stderr('Standard output was closed (the command reading it ended): pausing the run. Resume it with --resume.')
      runner.pause()
    })
    const state = await runner.idle().finally(() => {
      process.off('SIGINT', stop)
      process.off('SIGTERM', stop)
      unread?.()
    })
    if (io.tty && !values.json) io.tty.write('\n')
    const tallies = services.bulk.tallies(runId)
    const unsuccessful = services.bulk
      .items(runId, { outcome: 'failed' }, 0, 50)
      .items.concat(services.bulk.items(runId, { outcome: 'unknown' }, 0, 50).items)
    for (const item of unsuccessful) {
      if (values.json)
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
    if (notShown > 0) say(`… and ${notShown} more rows that did not succeed.`)
    const ok = state === 'finished' && tallies.failed === 0 && tallies.unknown === 0
    // The run paused itself (the server stopped answering, --bail, a full disk): say why.
    const pausedReason = state === 'paused' ? services.bulk.run(runId).pausedReason : null
    const counts = { runId, state, ...tallies, ...(pausedReason ? { pausedReason } : {}) }
    if (values.json) {
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
      // Rows a colleague's rotation made stale here: one command brings their tokens current.
      const stale =
        kind === 'rotate'
          ? services.bulk.items(runId, { outcome: 'skipped' }, 0, 1_000).items.filter((item) => STALE.test(item.message ?? '')).length
          : 0
      if (stale)
        io.stderr(
          `${plural(stale, 'row')} ${stale === 1 ? 'was' : 'were'} skipped because the token kept here is no longer the group’s: fetch the current tokens with \`embed-console groups apply ${fileName} --profile ${JSON.stringify(values.profile)} --fetch\`, then run the rotation again.`,
        )
      if (state !== 'finished') io.stdout(`Stopped with ${tallies.pending} rows not sent: run the same command with --resume to go on.`)
      io.stdout(`${state === 'finished' ? 'Done' : 'Stopped'}: ${summarySentence(tallies)}.`)
    }
    return ok ? 0 : 1
  } catch (error) {
    if (error instanceof AppErrorException) {
      if (values.json) envelope(io, { ok: false, error: error.toAppError() })
      else io.stderr(error.message)
      return error.code === 'invalid_input' ? 2 : 1
    }
    throw error
  } finally {
    await services.close()
    reportLeftBehind(services.team, io)
  }
}
