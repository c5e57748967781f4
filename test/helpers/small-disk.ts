import { execFileSync } from 'node:child_process'
import { mkdtemp, open, rm, statfs, truncate } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'

/** A real, small file system (tmpfs) that fills up: what a full disk does to a write. */
export interface SmallDisk {
  path: string
  /** Bytes the file system has free now. */
  free(): Promise<number>
  /** Fills the disk with a file of its own, leaving about `bytes` free (rounded to pages). */
  fillLeaving(bytes: number): Promise<void>
  /** Removes the filler. */
  empty(): Promise<void>
  unmount(): Promise<void>
}

const FILLER = '.filler'

/**
 * Mounts a tmpfs of `size` (as `mount -t tmpfs -o size=…` takes it). Needs root. Where it cannot
 * be had, answers the reason: the test says so and skips, except under CI=true, where a missing
 * small disk is a failure (CI runs as root and must test this).
 */
export async function mountSmallDisk(size: string): Promise<SmallDisk | string> {
  const path = await mkdtemp(join(tmpdir(), 'ec-small-disk-'))
  try {
    execFileSync('mount', ['-t', 'tmpfs', '-o', `size=${size},mode=0755`, 'tmpfs', path], { stdio: 'pipe' })
  } catch (error) {
    await rm(path, { recursive: true, force: true })
    const reason = `mount -t tmpfs failed (${(error as Error).message.split('\n')[0]}): a real small disk needs root`
    if (process.env.CI === 'true') throw new Error(`${reason}, and CI must run the full-disk tests.`)
    return reason
  }
  const filler = join(path, FILLER)
  const disk: SmallDisk = {
    path,
    async free() {
      const stats = await statfs(path)
      return stats.bavail * stats.bsize
    },
    async fillLeaving(bytes) {
      const handle = await open(filler, 'w')
      const chunk = Buffer.alloc(4096, 0x78)
      try {
        for (;;) await handle.write(chunk)
      } catch (error) {
        if ((error as NodeJS.ErrnoException).code !== 'ENOSPC') throw error
      } finally {
        await handle.close()
      }
      const { size } = await (await import('node:fs/promises')).stat(filler)
      await truncate(filler, Math.max(0, size - bytes))
    },
    async empty() {
      await rm(filler, { force: true })
    },
    async unmount() {
      // Lazily: a file a test left open must not fail the test run; the mount goes when it closes.
      execFileSync('umount', ['-l', path], { stdio: 'pipe' })
      await rm(path, { recursive: true, force: true })
    },
  }
  return disk
}
