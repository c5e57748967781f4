import { open } from 'node:fs/promises'
import { basename } from 'node:path'
import { decodeInput, type InputEncoding } from '../../src-shared/bulk/decode'
import { type BulkRunState, type BulkSettings, defaultRateFor, MAX_BULK_FILE_CHARACTERS } from '../../src-shared/bulk/schemas'
import { messageOf } from '../../src-shared/ipc/error-message'
import { AppErrorException } from '../../src-shared/ipc/result'
import { isLoopbackHostname } from '../../src-shared/net/loopback'
import { plural } from '../../src-shared/text/plural'
import { type AppServices, createAppServices } from '../app-services'
import type { BulkTarget } from '../bulk/bulk-service'
import { defaultDataDir } from '../data-dir'
import { createUserApiClient, type UserApiClient } from '../user-api/client'
import { refuseSystemPath } from '../user-files/system-folders'
import { type ApplyFlags, readApplyFlags } from './groups-apply-flags'
import { type ApplyOutput, envelope, printDryRun, printPlanProblems, printRunEnd, progressPrinter, say } from './groups-apply-report'
import { type CliIo, profileNamed, pullFirst, reportLeftBehind, UsageError } from './usage'

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

interface RunStart {
  services: AppServices
  flags: ApplyFlags
  text: string
  target: BulkTarget
  settings: BulkSettings
  out: ApplyOutput
}

/**
 * The run to send: an earlier run of the same file stopped part way (with --resume), or a new
 * plan of it. Answers an exit code instead where nothing is to be sent: the file has problems, or
 * it was a dry run.
 */
function planOrResume({ services, flags, text, target, settings, out }: RunStart): { runId: string } | { exitCode: number } {
  const { fileName } = out
  const earlier = flags.dryRun ? undefined : services.bulk.unfinishedRun(text, target)
  // Being sent elsewhere (the app, another terminal): refused with who sends it, resume or not.
  if (earlier?.owner) throw earlier.refusal
  // A plan never started is replaced; one stopped part way is gone on with, never sent afresh.
  const earlierId = earlier && (earlier.sent || earlier.state !== 'planned') ? earlier.id : undefined
  if (earlierId && !flags.resume) {
    const left = services.bulk.tallies(earlierId).pending
    throw new UsageError(`An earlier run of ${fileName} stopped with ${plural(left, 'row')} not sent: add --resume to go on from there.`)
  }
  if (earlierId) {
    say(out, `Resuming the run of ${fileName}: ${services.bulk.tallies(earlierId).pending} rows left to send.`)
    return { runId: earlierId }
  }
  if (flags.resume && !flags.dryRun) say(out, `No unfinished run of ${fileName} was found: starting it afresh.`)
  // A dry run is a plan with the bad rows left out and nothing kept.
  // Planned with the lease held at once: a second process planning the same file now is refused.
  const plan = services.bulk.plan({
    kind: flags.kind,
    target,
    fileName,
    text,
    excludeInvalid: flags.excludeInvalid && !flags.dryRun,
    settings,
    hold: true,
  })
  if (printPlanProblems(out, plan, flags.excludeInvalid)) return { exitCode: 2 }
  if (flags.dryRun) {
    printDryRun(out, plan, flags.kind)
    return { exitCode: 0 }
  }
  if (!plan.runId) throw new UsageError(`${fileName} holds no row to send.`)
  return { runId: plan.runId }
}

interface RunSending {
  services: AppServices
  runId: string
  settings: BulkSettings
  /** For a --base-url run; a profile's run goes through the app's group service. */
  client?: UserApiClient
  out: ApplyOutput
}

/**
 * Sends the run in this process until nothing is in flight: it finished, or paused (itself, or on
 * Ctrl+C, SIGTERM or a closed standard output, keeping the run for --resume).
 */
async function sendUntilIdle({ services, runId, settings, client, out }: RunSending): Promise<BulkRunState> {
  const { io, json } = out
  const runner = services.bulk.launch(runId, settings, { client, onProgress: progressPrinter(io, json) })
  // Ctrl+C: take no new row, let the requests in flight finish, keep the run for --resume.
  let interrupts = 0
  const stop = () => {
    interrupts += 1
    if (interrupts > 1) process.exit(130)
    say(out, '\nStopping: the requests in flight finish first. Press Ctrl+C again to quit at once.')
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
  if (io.tty && !json) io.tty.write('\n')
  return state
}

/** --fetch: the current token of every group the file lists, kept for the profile. */
async function fetchTokens(services: AppServices, profileId: string, text: string, out: ApplyOutput): Promise<number> {
  const { fetchListed, fetchSentence } = await import('./groups-fetch')
  const summary = await fetchListed(services, profileId, text, out.fileName, (sentence) => say(out, sentence))
  if (out.json)
    envelope(
      out.io,
      summary.failed
        ? { ok: false, error: { code: 'api_failure', message: fetchSentence(summary), details: { ...summary } } }
        : { ok: true, value: summary },
    )
  else out.io.stdout(fetchSentence(summary))
  return summary.failed ? 1 : 0
}

/**
 * `groups apply FILE`: the flags checked and the file read before anything opens; then the run
 * planned (or resumed), sent in this process, and its end reported. Answers the exit code.
 */
export async function runGroupsApply(argv: string[], io: CliIo): Promise<number> {
  const flags = readApplyFlags(argv, io.env)
  const text = await readInput(flags.file, flags.encoding)
  const out: ApplyOutput = { io, json: flags.json, fileName: basename(flags.file) }

  const services = await createAppServices({
    dataDir: flags.dataDir ?? defaultDataDir(io.env),
    transport: 'browser',
    client: 'cli',
    sandbox: false,
  })
  try {
    if (flags.profile) await pullFirst(services.team, io)
    const profile = flags.profile ? profileNamed(services.profiles, flags.profile) : undefined
    if (flags.fetch && profile) return await fetchTokens(services, profile.id, text, out)
    const target: BulkTarget = profile ? { profileId: profile.id } : { baseUrl: flags.baseUrl! }
    const targetUrl = profile?.baseUrl ?? flags.baseUrl!
    const settings: BulkSettings = {
      concurrency: flags.concurrency,
      ratePerMinute: flags.rate ?? defaultRateFor(isLoopbackHostname(new URL(targetUrl).hostname)),
      sendCreate: true,
      sendUpdate: true,
      bail: flags.bail,
    }
    const start = planOrResume({ services, flags, text, target, settings, out })
    if ('exitCode' in start) return start.exitCode
    const { runId } = start
    const client = profile ? undefined : createUserApiClient({ baseUrl: targetUrl, apiToken: flags.apiToken!, env: io.env })
    const state = await sendUntilIdle({ services, runId, settings, client, out })
    return printRunEnd(out, { services, runId, state, kind: flags.kind, profile: flags.profile })
  } catch (error) {
    if (error instanceof AppErrorException) {
      if (flags.json) envelope(io, { ok: false, error: error.toAppError() })
      else io.stderr(error.message)
      return error.code === 'invalid_input' ? 2 : 1
    }
    throw error
  } finally {
    await services.close()
    reportLeftBehind(services.team, io)
  }
}
