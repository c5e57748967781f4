import { readFile, rename } from 'node:fs/promises'
import { basename } from 'node:path'
import type { z } from 'zod'
import { messageOf } from '../../src-shared/ipc/error-message'
import { AppErrorException } from '../../src-shared/ipc/result'
import { writeFileAtomically } from './atomic-write'

/*
 * Every file main keeps (profiles, vault, catalog, sandbox data, recent files, drafts) is a small
 * JSON file that only the owner may read: several hold, or sit next to, credentials. A file that
 * cannot be read is never overwritten silently: it is moved aside so that nothing in it is lost,
 * and the caller tells the operator.
 */

export type JsonFileRead<T> = { state: 'missing' } | { state: 'read'; value: T } | { state: 'moved-aside'; notice: string }

const OWNER_ONLY = 0o600

export async function readJsonFile<T>(path: string, schema: z.ZodType<T>, now: () => Date = () => new Date()): Promise<JsonFileRead<T>> {
  let text: string
  try {
    text = await readFile(path, 'utf8')
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return { state: 'missing' }
    throw new AppErrorException('file_io', `${basename(path)} could not be read: ${messageOf(error)}`)
  }
  const problem = jsonProblem(text, schema)
  if (problem.ok) return { state: 'read', value: problem.value }

  const asidePath = `${path}.corrupt-${fileTimestamp(now())}`
  await rename(path, asidePath)
  return {
    state: 'moved-aside',
    notice: `${basename(path)} could not be read (${problem.reason}). It was moved aside to ${basename(asidePath)} and the app started without it.`,
  }
}

// Reasons never quote the file: it may hold a secret.
function jsonProblem<T>(text: string, schema: z.ZodType<T>): { ok: true; value: T } | { ok: false; reason: string } {
  let json: unknown
  try {
    json = JSON.parse(text)
  } catch {
    return { ok: false, reason: 'it is not valid JSON' }
  }
  const parsed = schema.safeParse(json)
  if (parsed.success) return { ok: true, value: parsed.data }
  const first = parsed.error.issues[0]
  const where = first && first.path.length > 0 ? ` at ${first.path.join('.')}` : ''
  return { ok: false, reason: `unexpected content${where}` }
}

/** Windows-safe and sortable: 2025-01-31T09-05-00-123Z. */
function fileTimestamp(date: Date): string {
  return date.toISOString().replace(/[:.]/g, '-')
}

/** Owner-only, written whole or not at all (see writeFileAtomically). */
export async function writeJsonFile(path: string, value: unknown): Promise<void> {
  await writeFileAtomically(path, `${JSON.stringify(value, null, 2)}\n`, { mode: OWNER_ONLY, forceMode: true })
}
