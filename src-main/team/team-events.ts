import { visibleTail } from '../../src-shared/profiles/schemas'
import { type SettledRotation, tokenFingerprint } from '../groups/rotation-journal'
import type { TeamRecordedCall } from '../groups/team-hooks'

/*
 * What the team database is told of a call: the activity entry's fields, the server it went to
 * and, for a success, the group as answered, its token reduced to its last 4 characters and its
 * SHA-256 fingerprint. Never a token, a request body or an answer body: whatever reaches the
 * shared log reaches the whole team.
 */

export interface CallEvent {
  kind: 'call'
  id: string
  calledAt: string
  server: string
  profileName: string
  operation: 'getOrCreate' | 'update' | 'rotateToken'
  groupId: string | null
  outcome: 'success' | 'failure' | 'unknown'
  httpStatus: number | null
  errorCode: string | null
  message: string | null
  durationMs: number
  tokenLast4: string | null
  newUserGroup: boolean | null
  group?: {
    name?: string | null
    environmentTag?: string | null
    teamId?: number
    properties?: unknown
    mapping?: unknown
    tokenLast4: string | null
    tokenSha256: string
  }
}

export interface SettledEvent {
  kind: 'settled'
  id: string
  outcome: 'rotated' | 'not_rotated'
  at: string
}

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i

/** The event for a recorded call, or null for a call the team does not log (a connection test). */
export function callEvent(call: TeamRecordedCall, server: string): CallEvent | null {
  const { entry, group } = call
  if (entry.operation === 'testConnection' || !UUID.test(entry.id)) return null
  const tokenLast4 = group ? (visibleTail(group.token) ?? null) : null
  return {
    kind: 'call',
    id: entry.id,
    calledAt: entry.time,
    server,
    profileName: entry.profileName,
    operation: entry.operation,
    groupId: entry.groupId ?? group?.provided_id ?? null,
    outcome: entry.outcome,
    httpStatus: entry.httpStatus ?? null,
    errorCode: entry.errorCode ?? null,
    message: entry.message ?? null,
    durationMs: entry.durationMs,
    tokenLast4,
    newUserGroup: call.newUserGroup ?? null,
    ...(group && entry.outcome === 'success'
      ? {
          group: {
            ...(group.name !== undefined ? { name: group.name } : {}),
            ...(group.api_environment_tag !== undefined ? { environmentTag: group.api_environment_tag } : {}),
            ...(group.team_id !== undefined ? { teamId: group.team_id } : {}),
            ...(group.properties !== undefined ? { properties: group.properties } : {}),
            ...(call.sent?.mapping !== undefined ? { mapping: call.sent.mapping } : {}),
            tokenLast4,
            tokenSha256: tokenFingerprint(group.token),
          },
        }
      : {}),
  }
}

export const settledEvent = (settled: SettledRotation): SettledEvent => ({
  kind: 'settled',
  id: settled.id,
  outcome: settled.outcome,
  at: settled.at,
})

/** The outbox key of a settlement: one per rotation, beside its call's own event. */
export const settledEventId = (activityId: string) => `settled:${activityId}`

// A NUL is exactly what this looks for.
// eslint-disable-next-line no-control-regex
const UNSTORABLE = /\u0000|[\ud800-\udbff](?![\udc00-\udfff])|(?<![\ud800-\udbff])[\udc00-\udfff]/g

/**
 * Text Postgres can store: a NUL is refused by every text and jsonb value, and a lone UTF-16
 * surrogate by jsonb (both are valid JSON, and the API accepts them). Each becomes U+FFFD, the
 * replacement character, so the call still reaches the audit log and shows where it was.
 */
export const storableText = (text: string): string => text.replace(UNSTORABLE, '\uFFFD')

const HTTP_STATUS_MAX = 999
const DAY_MS = 86_400_000

/** A JSON value with every string (keys too) storable, deeply. */
function storableJson(value: unknown): unknown {
  if (typeof value === 'string') return storableText(value)
  if (Array.isArray(value)) return value.map(storableJson)
  if (value && typeof value === 'object')
    return Object.fromEntries(Object.entries(value).map(([key, inner]) => [storableText(key), storableJson(inner)]))
  return value
}

/**
 * An event as the team database can store it, whatever wrote it to the outbox (this version or
 * an earlier one): text made storable, and every number that Postgres casts (int, bigint,
 * double) within its type, or left out. What the database still refuses fails alone and is
 * parked (see the publisher).
 */
export function storableEvent(event: unknown): unknown {
  const storable = storableJson(event)
  if (!storable || typeof storable !== 'object' || (storable as { kind?: unknown }).kind !== 'call') return storable
  const call = storable as Record<string, unknown> & { group?: Record<string, unknown> }
  const status = call.httpStatus
  if (status !== null && !(Number.isInteger(status) && (status as number) >= 0 && (status as number) <= HTTP_STATUS_MAX))
    call.httpStatus = null
  const duration = call.durationMs
  call.durationMs = typeof duration === 'number' && Number.isFinite(duration) ? Math.min(Math.max(duration, 0), DAY_MS) : 0
  if (call.group && typeof call.group === 'object' && 'teamId' in call.group && !Number.isSafeInteger(call.group.teamId))
    delete call.group.teamId
  return call
}
