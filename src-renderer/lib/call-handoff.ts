import type { GetOrCreateRequest } from '../../src-shared/user-api/schemas'
import { createHandoff } from './handoff'

/**
 * A past call handed from one screen to another (Activity → Groups): "Open in form" fills the
 * form with its request, "Run again" also sends it (a rotation only asks again: it is never
 * re-run without a fresh confirmation and the group's current token).
 */
export type CallHandoff =
  | { kind: 'group'; profileId: string; operation: 'getOrCreate' | 'update'; request: GetOrCreateRequest; run: boolean }
  | { kind: 'rotation'; profileId: string; groupId?: string; run: boolean }

export const useCallHandoff = createHandoff<CallHandoff>()
