import { mkdtemp, readFile, rm, stat, writeFile } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { dirname, join } from 'node:path'
import { describe, expect, it } from 'vitest'
import { writeRecoveryFile } from '../../../src-main/groups/recovery-file'

const at = new Date('2026-03-01T10:20:30.456Z')

describe('the recovery file of a rotated token the database could not take', () => {
  it('is written owner-only into a folder made owner-only, named for the time and the group, with all the operator needs', async () => {
    const recoveryDir = join(await mkdtemp(join(tmpdir(), 'ec-recovery-')), 'recovered')
    const file = await writeRecoveryFile({ recoveryDir, at, profileId: 'p1', groupId: 'acme', token: 'new-token-123456' })
    expect(file).toBe(join(recoveryDir, '2026-03-01T10-20-30-456Z-acme.txt'))
    expect((await stat(file!)).mode & 0o777).toBe(0o600)
    expect((await stat(recoveryDir)).mode & 0o777).toBe(0o700)
    expect(await readFile(file!, 'utf8')).toBe(
      'Embed Console could not save this rotated token. Store it, then delete this file.\nprofile: p1\nuser_group_id: acme\ntoken: new-token-123456\n',
    )
  })

  it('keeps a group id with separators or dots from naming a file outside the folder', async () => {
    const recoveryDir = await mkdtemp(join(tmpdir(), 'ec-recovery-'))
    const file = await writeRecoveryFile({ recoveryDir, at, profileId: 'p1', groupId: '../../etc/passwd', token: 'new-token-123456' })
    expect(dirname(file!)).toBe(recoveryDir)
    expect(file).toBe(join(recoveryDir, '2026-03-01T10-20-30-456Z-.._.._etc_passwd.txt'))
  })

  it('falls back to a folder of the temp folder named for this user when the data folder takes nothing', async () => {
    const blocker = join(await mkdtemp(join(tmpdir(), 'ec-recovery-')), 'a-file')
    await writeFile(blocker, '')
    const groupId = `fallback-${process.pid}-${Date.now()}`
    const file = await writeRecoveryFile({
      recoveryDir: join(blocker, 'recovered'),
      at,
      profileId: 'p1',
      groupId,
      token: 'new-token-123456',
    })
    try {
      expect(dirname(file!)).toBe(join(tmpdir(), `embed-console-recovered-${process.getuid?.() ?? 'user'}`))
      expect((await stat(file!)).mode & 0o777).toBe(0o600)
      expect(await readFile(file!, 'utf8')).toContain(`user_group_id: ${groupId}\n`)
    } finally {
      if (file) await rm(file, { force: true })
    }
  })
})
