import { mkdir } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { writeFileAtomically } from '../storage/atomic-write'

/**
 * The only other copy of a rotated token the database could not take (a full disk): written
 * owner-only into `recoveryDir`, else into a folder of the temp folder named for this user.
 * Returns the file's path, or null when neither disk takes it.
 */
export async function writeRecoveryFile({
  recoveryDir,
  at,
  profileId,
  groupId,
  token,
}: {
  recoveryDir: string
  /** When the record failed: the file's name begins with it. */
  at: Date
  profileId: string
  groupId: string
  token: string
}): Promise<string | null> {
  const stamp = at.toISOString().replace(/[:.]/g, '-')
  const name = `${stamp}-${groupId.replace(/[^\w.-]+/g, '_').slice(0, 80)}.txt`
  const text = `Embed Console could not save this rotated token. Store it, then delete this file.\nprofile: ${profileId}\nuser_group_id: ${groupId}\ntoken: ${token}\n`
  for (const folder of [recoveryDir, join(tmpdir(), `embed-console-recovered-${process.getuid?.() ?? 'user'}`)]) {
    try {
      await mkdir(folder, { recursive: true, mode: 0o700 })
      const file = join(folder, name)
      await writeFileAtomically(file, text, { mode: 0o600, forceMode: true })
      return file
    } catch {
      // That disk is full too: try the next place.
    }
  }
  return null
}
