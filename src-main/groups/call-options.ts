import type { GroupCallResult } from '../../src-shared/ipc/group-calls'
import type { AppErrorException } from '../../src-shared/ipc/result'

/** What a call came to, as handed to `CallOptions.settle`. */
export type CallSettlement = { ok: true; result: GroupCallResult } | { ok: false; error: AppErrorException }

/** Per-call overrides of the profile's settings (the CLI's --timeout), and a hook for bulk runs. */
export interface CallOptions {
  timeoutMs?: number
  /**
   * Runs inside the transaction that records the call (activity entry, token, catalog row), so
   * whatever it writes (a bulk run's journal) commits with them or not at all. Synchronous.
   */
  settle?: (settlement: CallSettlement) => void
  /**
   * A rotation of a bulk run's row: runs inside the durable transaction that journals the
   * rotation before it is sent (the run claims its row there, fenced on its lease, and throws if
   * it lost it: then nothing is sent).
   */
  claim?: () => void
  run?: { runId: string; seq: number }
  /**
   * The call's record (activity entry, token, catalog row) follows its answer, written in a batch
   * with the records of the calls around it (Database.defer): for get-or-create and update, which
   * are idempotent, so a record lost with the process is one the operator or a resumed run asks
   * again harmlessly. Never a rotation's, which is journaled before it is sent. `settle` is then
   * called as the answer comes, outside any transaction; what it defers joins the batch.
   */
  deferred?: boolean
}
