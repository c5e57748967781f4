import { readFile, rename } from 'node:fs/promises'
import writeFileAtomic from 'write-file-atomic'
import type { z } from 'zod'

export type LoadOutcome<T> = { kind: 'missing' } | { kind: 'loaded'; value: T } | { kind: 'corrupt'; movedTo: string; reason: string }

/**
 * Reads a JSON file through its schema. A file that is not JSON or not of the schema is never
 * overwritten silently: it is moved aside (`<file>.corrupt-<time>`) and reported, so the caller
 * can start empty and say where the old data went.
 */
export async function loadJsonFile<S extends z.ZodType>(file: string, schema: S, now = () => new Date()): Promise<LoadOutcome<z.output<S>>> {
  let text: string
  try {
    text = await readFile(file, 'utf8')
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return { kind: 'missing' }
    throw error
  }
  let reason: string
  try {
    const parsed = schema.safeParse(JSON.parse(text))
    if (parsed.success) return { kind: 'loaded', value: parsed.data }
    reason = parsed.error.issues[0]?.message ?? 'unexpected shape'
  } catch (error) {
    reason = (error as Error).message
  }
  const movedTo = `${file}.corrupt-${now().toISOString().replace(/[:.]/g, '-')}`
  await rename(file, movedTo)
  return { kind: 'corrupt', movedTo, reason }
}

/** Temp file + fsync + rename: a crash leaves the old file or the new one, never half of either. */
export async function saveJsonFile(file: string, value: unknown, mode = 0o600): Promise<void> {
  await writeFileAtomic(file, `${JSON.stringify(value, null, 2)}\n`, { mode, fsync: true })
}

/**
 * Serialises saves of one file and coalesces bursts: requests made while a save runs share one
 * further save, which reads the newest state when it starts. Every caller's promise settles after
 * a save that began after its request, so awaiting it means "my change is on disk".
 */
export class SaveQueue {
  private tail: Promise<void> = Promise.resolve()
  private queued: Promise<void> | null = null

  constructor(private readonly save: () => Promise<void>) {}

  request(): Promise<void> {
    if (this.queued) return this.queued
    const next = this.tail.then(() => {
      this.queued = null
      return this.save()
    })
    this.queued = next
    this.tail = next.catch(() => {})
    return next
  }
}
