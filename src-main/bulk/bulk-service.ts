import { createHash, randomUUID } from 'node:crypto'
import {
  BULK_RESULT_COLUMNS,
  type BulkCounts,
  type BulkFormat,
  type BulkItem,
  type BulkKind,
  type BulkProblem,
  type BulkProgress,
  type BulkResultsFormat,
  type BulkRun,
  type BulkSettings,
  MAX_BULK_FILE_CHARACTERS,
} from '../../src-shared/bulk/schemas'
import type { GroupCallResult } from '../../src-shared/ipc/group-calls'
import { AppErrorException } from '../../src-shared/ipc/result'
import { plural } from '../../src-shared/text/plural'
import type { GroupCatalog } from '../catalog/group-catalog'
import type { CallSettlement } from '../groups/call-options'
import type { GroupService } from '../groups/group-service'
import { secretInRequest, secretInRowSentence } from '../groups/secrets-in-request'
import type { ProfileStore } from '../profiles/profile-store'
import type { SecretVault } from '../profiles/vault'
import { groupTokenKey } from '../profiles/vault-keys'
import { csvRows } from '../storage/csv-export'
import type { Database } from '../storage/database'
import type { UserApiClient } from '../user-api/client'
import { createRedactor } from '../user-api/redact'
import { parseBulkInput } from './bulk-input'
import { BulkJournal, type ItemFilter } from './bulk-journal'
import { Pacer } from './bulk-pacer'
import { countActions, planRows } from './bulk-plan'
import { type RunControl, type RunLease, startRun } from './bulk-runner'
import type { SenderSettlement, SentGroup } from './row-answers'
import type { BulkSender } from './row-sender'
import { type LeaseOwner, leaseRefusal, type RunLeases, SqliteRunLeases } from './run-leases'

/** At most this many problems travel back with a plan; the count says how many there are. */
const PROBLEMS_SHOWN = 500

/** Where a run goes: a saved profile (planned against its catalog), or a bare base URL (the CLI). */
export type BulkTarget = { profileId: string } | { baseUrl: string }

export interface PlanRequest {
  kind: BulkKind
  target: BulkTarget
  fileName: string
  text: string
  /** Plan the valid rows and leave the bad ones out (after the operator has seen them). */
  excludeInvalid: boolean
  settings: BulkSettings
  /** Take the run's lease with the plan, in one transaction (the CLI sends at once). */
  hold?: boolean
}

export interface PlanAnswer {
  runId: string | null
  format: BulkFormat
  planned: BulkCounts
  problems: BulkProblem[]
  problemCount: number
}

const sha256 = (text: string) => createHash('sha256').update(text).digest('hex')

const sentOf = (result: GroupCallResult): SentGroup => ({
  group: result.group,
  httpStatus: result.httpStatus,
  ...(result.newUserGroup !== undefined ? { newUserGroup: result.newUserGroup } : {}),
  ...(result.unsaved ? { unsaved: result.warnings[0] ?? 'The answer could not be recorded.' } : {}),
})

/** The group service, with each call's journal row written in the transaction that records it. */
export function profileSender(groups: GroupService, catalog: GroupCatalog, profileId: string): BulkSender {
  const hook = (settle: (settlement: SenderSettlement) => void) => ({
    settle: (settlement: CallSettlement) => settle(settlement.ok ? { ok: true, sent: sentOf(settlement.result) } : settlement),
  })
  // Idempotent calls are recorded after their answer, in batches (the journal is the truth: one lost with the process is sent
  // again); rotations never are.
  const deferred = (settle: (settlement: SenderSettlement) => void) => ({ ...hook(settle), deferred: true })
  return {
    getOrCreate: async (request, settle) => sentOf(await groups.getOrCreate(profileId, request, deferred(settle))),
    update: async (request, settle) => sentOf(await groups.update(profileId, request, deferred(settle))),
    rotate: async (groupId, settle, row) =>
      sentOf(
        await groups.rotateToken(
          profileId,
          { kind: 'catalog', groupId },
          { ...hook(settle), claim: row.claim, run: { runId: row.runId, seq: row.seq } },
        ),
      ),
    knownMapping: (groupId) => catalog.get(profileId, groupId)?.mapping,
  }
}

/** A bare base URL (the CLI's --base-url): the client alone, journaled after each call. */
export function clientSender(client: UserApiClient): BulkSender {
  const sending = async (call: () => Promise<SentGroup>, settle: (settlement: SenderSettlement) => void) => {
    let sent: SentGroup
    try {
      sent = await call()
    } catch (error) {
      if (error instanceof AppErrorException) settle({ ok: false, error })
      throw error
    }
    settle({ ok: true, sent })
    return sent
  }
  return {
    getOrCreate: (request, settle) =>
      sending(async () => {
        const { value, status } = await client.getOrCreate(request)
        return { group: value.user_group, newUserGroup: value.new_user_group, httpStatus: status }
      }, settle),
    update: (request, settle) =>
      sending(async () => {
        const { value, status } = await client.update(request)
        return { group: value.user_group, httpStatus: status }
      }, settle),
    rotate: () =>
      Promise.reject(new AppErrorException('refused', 'Rotation runs need a saved profile: its kept tokens are what is rotated.')),
  }
}

export interface BulkServiceDeps {
  db: Database
  profiles: ProfileStore
  vault: SecretVault
  catalog: GroupCatalog
  groups: GroupService
  /** This process, as leases name it. */
  owner: LeaseOwner
  /** Where leases are kept: this database, or (team mode) a shared one. */
  leases?: RunLeases
  onProgress: (progress: BulkProgress) => void
}

/**
 * Bulk runs in the app: plans a file against a profile's catalog into a journaled run, runs it
 * (one runner per run, in this process), and answers for its rows and results.
 */
export function createBulkService(deps: BulkServiceDeps) {
  const { db, profiles, vault, catalog, groups, owner } = deps
  const journal = new BulkJournal(db, undefined, createRedactor([], vault.knownSecrets))
  const leases = deps.leases ?? new SqliteRunLeases(db)
  const labelOf = (run: Pick<BulkRun, 'fileName'>) => `The run of ${run.fileName}`
  /** The run's lease for this process: taken with the journal re-read in the same transaction. */
  const leaseFor = (run: BulkRun): RunLease => ({
    acquire: () =>
      db.transaction(() => {
        const lease = leases.acquire(run.id, owner, labelOf(run))
        journal.takeOver(run.id, lease)
        return lease
      }),
    renew: (lease) => leases.renew(lease),
    release: (lease) => leases.release(lease),
  })
  const running = new Map<string, RunControl>()
  // One pace per server: two runs to one profile keep to its limit together, and a 429 holds both.
  const pacers = new Map<string, Pacer>()
  const pacerFor = (run: BulkRun) => {
    const key = run.profileId ?? run.baseUrl
    let pacer = pacers.get(key)
    if (!pacer) pacers.set(key, (pacer = new Pacer(null)))
    return pacer
  }
  const profileName = (profileId: string) => profiles.nameOf(profileId)

  const runOrThrow = (runId: string): BulkRun => {
    const run = journal.run(runId, profileName)
    if (!run) throw new AppErrorException('not_found', 'This bulk run does not exist: it may have been deleted.')
    return run
  }

  const resolveTarget = (target: BulkTarget): { profileId: string | null; baseUrl: string } => {
    if ('baseUrl' in target) return { profileId: null, baseUrl: target.baseUrl }
    const profile = profiles.get(target.profileId)
    return { profileId: profile.id, baseUrl: profile.baseUrl }
  }

  const control = (runId: string): RunControl => {
    const runner = running.get(runId)
    if (!runner) throw new AppErrorException('refused', 'This run is not going in this window. Resume it first.')
    return runner
  }

  return {
    journal,

    /**
     * The newest run of this input to this target that did not finish, if any: whether any of
     * its rows went out, and who sends it now (with the sentence that refuses another sender).
     */
    unfinishedRun(text: string, target: BulkTarget) {
      const run = journal.unfinishedRun(sha256(text), resolveTarget(target))
      if (!run) return undefined
      const holder = leases.holder(run.id)
      const fileName = journal.run(run.id)?.fileName ?? 'this file'
      return { ...run, owner: holder, refusal: holder ? leaseRefusal(labelOf({ fileName }), holder, Date.now()) : null }
    },

    /**
     * Plans a file into a run. A second plan of a file whose run has not finished is refused
     * (checked in the transaction that records the new one, so two processes planning at once
     * cannot both get one): while it is sent, with a sentence naming the process that sends it;
     * once stopped part way, with "resume it". A plan that was never started is replaced.
     */
    plan(request: PlanRequest): PlanAnswer {
      if (request.text.length > MAX_BULK_FILE_CHARACTERS) {
        throw new AppErrorException(
          'invalid_input',
          `${request.fileName} is larger than ${MAX_BULK_FILE_CHARACTERS / 1024 / 1024} MB: split it.`,
        )
      }
      const target = resolveTarget(request.target)
      const profileId = target.profileId
      if (request.kind === 'rotate' && !profileId)
        throw new AppErrorException('refused', 'A rotation run needs a saved profile: the tokens it rotates are the ones kept for it.')
      const parsed = parseBulkInput(request.text, request.fileName, request.kind)
      const lookup = profileId
        ? {
            entry: (groupId: string) => catalog.get(profileId, groupId),
            hasToken: (groupId: string) => vault.has(groupTokenKey(profileId, groupId)),
          }
        : null
      // A row carrying a secret the app keeps is a problem like a bad cell: never planned, journaled or sent.
      const known = vault.knownSecrets()
      const secretProblems: BulkProblem[] = []
      const clean = parsed.rows.filter((row) => {
        const secret = secretInRequest(row.request, known, profileName)
        if (secret) secretProblems.push({ line: row.line, column: secret.field, message: secretInRowSentence(secret) })
        return !secret
      })
      const { planned, problems: planProblems } = planRows(request.kind, clean, lookup)
      const problems = [...parsed.problems, ...secretProblems, ...planProblems].sort((a, b) => a.line - b.line)
      const answer = {
        format: parsed.format,
        planned: countActions(planned),
        problems: problems.slice(0, PROBLEMS_SHOWN),
        problemCount: problems.length,
      }
      if ((problems.length > 0 && !request.excludeInvalid) || planned.length === 0) return { runId: null, ...answer }
      const runId = randomUUID()
      const inputSha256 = sha256(request.text)
      db.transaction(() => {
        const earlier = journal.unfinishedRun(inputSha256, target)
        if (earlier) {
          const holder = leases.holder(earlier.id)
          if (holder) throw leaseRefusal(labelOf(request), holder, Date.now())
          if (earlier.sent || earlier.state !== 'planned') {
            const left = journal.tallies(earlier.id).pending
            throw new AppErrorException(
              'conflict',
              `An earlier run of ${request.fileName} stopped with ${plural(left, 'row')} not sent: resume it (or cancel it) rather than sending the file again.`,
              { runId: earlier.id, pending: left },
            )
          }
          journal.supersede(earlier.id)
        }
        journal.createRun(
          { id: runId, kind: request.kind, ...target, fileName: request.fileName, inputSha256, settings: request.settings },
          planned,
        )
        if (request.hold) leases.acquire(runId, owner, labelOf(request))
      })
      return { runId, ...answer }
    },

    /**
     * Runs a planned (or stopped) run in this process. A profile's run goes through the group
     * service, so every row lands in the activity log and the catalog too; a bare base URL needs
     * its client (the CLI's --base-url).
     */
    launch(
      runId: string,
      settings: BulkSettings,
      options: { client?: UserApiClient; onProgress?: (progress: BulkProgress) => void } = {},
    ): RunControl {
      const run = runOrThrow(runId)
      if (running.get(runId)?.progress().state === 'running') throw new AppErrorException('conflict', 'This run is going already.')
      if (run.state === 'finished' || run.state === 'cancelled')
        throw new AppErrorException('refused', `This run is ${run.state}: plan the file again to send it again.`)
      let sender: BulkSender
      if (run.profileId) sender = profileSender(groups, catalog, run.profileId)
      else if (options.client) sender = clientSender(options.client)
      else
        throw new AppErrorException(
          'refused',
          'This run was started from the command line against a base URL: resume it there, with --resume.',
        )
      const sendSettings = run.kind === 'rotate' ? { ...settings, concurrency: 1 } : settings
      journal.setSettings(runId, sendSettings)
      // Takes the lease (or throws the sentence naming who holds it) before anything is sent.
      const runner = startRun({
        journal,
        lease: leaseFor(run),
        runId,
        settings: sendSettings,
        sender,
        pacer: pacerFor(run),
        onProgress: options.onProgress ?? deps.onProgress,
      })
      running.set(runId, runner)
      void runner.done.finally(() => running.delete(runId))
      return runner
    },

    pause: (runId: string) => control(runId).pause(),
    resume: (runId: string) => control(runId).resume(),
    cancel(runId: string): void {
      const runner = running.get(runId)
      if (runner && runner.progress().state === 'running') return runner.cancel()
      const run = runOrThrow(runId)
      if (run.state === 'finished' || run.state === 'cancelled') return
      // Cancelling is sending nothing more: it needs the lease too, so a run going elsewhere is not cut under its holder.
      const runLease = leaseFor(run)
      db.transaction(() => {
        const lease = runLease.acquire()
        journal.skipPending(runId)
        journal.setState(runId, 'cancelled')
        runLease.release(lease)
      })
      runner?.cancel()
    },

    run: (runId: string) => runOrThrow(runId),
    runs: (limit: number) => journal.runs(limit, profileName),
    progress: (runId: string) => running.get(runId)?.progress() ?? null,
    items: (runId: string, filter: ItemFilter, offset: number, limit: number): { matching: number; items: BulkItem[] } => {
      runOrThrow(runId)
      return journal.items(runId, filter, offset, limit)
    },

    /**
     * A results file, a batch of rows at a time: each row's line, id, action, outcome, status and
     * message. Group tokens only when asked for, and only those the app keeps for the profile.
     */
    async *results(runId: string, format: BulkResultsFormat, includeTokens: boolean): AsyncGenerator<string> {
      const run = runOrThrow(runId)
      const columns = includeTokens ? [...BULK_RESULT_COLUMNS, 'token'] : [...BULK_RESULT_COLUMNS]
      const rowOf = (item: BulkItem): Record<string, unknown> => ({
        line: item.line,
        user_group_id: item.groupId,
        action: item.action,
        outcome: item.outcome ?? item.state,
        http_status: item.httpStatus,
        message: item.message,
        token_last4: item.tokenLast4,
        ...(includeTokens ? { token: run.profileId ? vault.get(groupTokenKey(run.profileId, item.groupId)) : null } : {}),
      })
      if (format === 'csv') yield csvRows([columns])
      else yield '[\n'
      let first = true
      for (const batch of journal.allItems(runId)) {
        if (format === 'csv') yield csvRows(batch.map((item) => columns.map((column) => rowOf(item)[column] ?? '')))
        else {
          yield batch.map((item, index) => `${first && index === 0 ? '' : ',\n'}  ${JSON.stringify(rowOf(item))}`).join('')
          first = false
        }
        await new Promise((resolve) => setImmediate(resolve))
      }
      if (format === 'json') yield '\n]\n'
    },

    /** Runs this process left behind are found on the next start and offered for resuming. */
    interrupted: () => journal.markInterrupted(),

    tallies: (runId: string) => journal.tallies(runId),

    stopAll(): Promise<unknown> {
      for (const runner of running.values()) runner.pause()
      return Promise.all([...running.values()].map((runner) => runner.idle()))
    },
  }
}

export type BulkService = ReturnType<typeof createBulkService>
