import { createHash } from 'node:crypto'
import { mkdtemp, readdir, readFile, stat, writeFile } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest'
import { createAppServices } from '../../../src-main/app-services'
import { type Sandbox, startSandbox } from '../../../src-main/sandbox/sandbox-server'
import { writeFileAtomically } from '../../../src-main/storage/atomic-write'
import { writeJsonFile } from '../../../src-main/storage/json-file'
import { failureOf } from '../../helpers/failure-of'
import { createOpsProfile, type FlakyProxy, startFlakyProxy } from '../../helpers/flaky-proxy'
import { readSandboxData } from '../../helpers/sandbox-data'
import { mountSmallDisk, type SmallDisk } from '../../helpers/small-disk'
import { siteFiles, tempDir } from '../site-files/helpers'

/*
 * A full disk, for real: a 128 kB tmpfs filled until the next write cannot fit. The kernel then
 * takes part of a write and refuses the rest, which is how a file ends up short and "saved".
 */

const disk = await mountSmallDisk('128k')
if (typeof disk === 'string') console.warn(`Full-disk tests skipped: ${disk}.`)
const mounted = typeof disk === 'string' ? null : disk

const sha = (bytes: Buffer) => createHash('sha256').update(bytes).digest('hex')
/** A site.json of 3,998 bytes, and the longer text an edit makes of it. */
const ORIGINAL =
  `${JSON.stringify({ name: 'Acme', navigation: [{ group: 'Start', pages: Array.from({ length: 160 }, (_, index) => `p-${index}`) }] }, null, 2)}\n`.padEnd(
    3998,
    ' ',
  )
const EDITED = ORIGINAL.replace('"Acme"', `"${'A'.repeat(4000)}"`)

describe.skipIf(!mounted)('a save on a full disk', () => {
  const small = mounted as SmallDisk
  afterAll(() => small.unmount())
  afterEach(() => small.empty())

  const filesOnDisk = async () => (await readdir(small.path)).filter((name) => name !== '.filler').sort()

  it('writeFileAtomically: a clear error, the original byte-identical, no temporary file left', async () => {
    const path = join(small.path, 'site.json')
    await writeFile(path, ORIGINAL)
    const before = await readFile(path)
    await small.fillLeaving(4096)
    expect(await small.free()).toBeLessThan(Buffer.byteLength(EDITED))
    const error = await failureOf(writeFileAtomically(path, EDITED))
    expect(error).toMatchObject({
      code: 'file_io',
      message: 'The disk is full: site.json was not saved, and the file on disk is unchanged. Free some space and save again.',
    })
    expect(sha(await readFile(path))).toBe(sha(before))
    expect(await filesOnDisk()).toEqual(['site.json'])
    // With room again, the same save goes through whole.
    await small.empty()
    await writeFileAtomically(path, EDITED)
    expect(await readFile(path, 'utf8')).toBe(EDITED)
  })

  it('site.save through the editor’s service: refused with the sentence, nothing half-written, the document still savable', async () => {
    const path = join(small.path, 'site.json')
    await writeFile(path, ORIGINAL)
    const files = siteFiles(await tempDir('ec-full-disk-data-'))
    const document = await files.open(path)
    await small.fillLeaving(4096)
    const error = await failureOf(
      files.save({ documentId: document.documentId, text: EDITED, byteOrderMark: false, expectedVersion: document.version! }),
    )
    expect(error.message).toBe(
      'The disk is full: site.json was not saved, and the file on disk is unchanged. Free some space and save again.',
    )
    expect(await readFile(path, 'utf8')).toBe(ORIGINAL)
    expect(await filesOnDisk()).toEqual(['site.json'])
    await small.empty()
    const saved = await files.save({
      documentId: document.documentId,
      text: EDITED,
      byteOrderMark: false,
      expectedVersion: document.version!,
    })
    expect(saved.version.size).toBe(Buffer.byteLength(EDITED))
  })

  it('the app’s JSON files (recent files, drafts): the old file kept whole', async () => {
    const path = join(small.path, 'recent.json')
    await writeJsonFile(path, { files: ['a'] })
    const before = await readFile(path, 'utf8')
    await small.fillLeaving(0)
    await expect(writeJsonFile(path, { files: Array.from({ length: 500 }, (_, index) => `/docs/site-${index}.json`) })).rejects.toThrow(
      /^The disk is full: recent\.json was not saved/,
    )
    expect(await readFile(path, 'utf8')).toBe(before)
  })
})

describe.skipIf(!mounted)('a rotation whose result cannot be recorded (the data folder’s disk is full)', () => {
  let sandbox: Sandbox
  let proxy: FlakyProxy
  let dataDisk: SmallDisk
  let sandboxFile: string

  beforeAll(async () => {
    const dir = await mkdtemp(join(tmpdir(), 'ec-full-rotation-'))
    sandboxFile = join(dir, 'sandbox.db')
    sandbox = await startSandbox({ dataFile: sandboxFile })
    const mountedData = await mountSmallDisk('4m')
    if (typeof mountedData === 'string') throw new Error(mountedData)
    dataDisk = mountedData
  })
  afterAll(async () => {
    await proxy?.close()
    await sandbox.close()
    await dataDisk.unmount()
  })

  it('shows the new token once with “copy it now”, writes a recovery file, and the next fetch keeps the server’s token', async () => {
    const dataDir = join(dataDisk.path, 'data')
    // The disk fills between the rotation being journaled and its answer being recorded.
    let fill = false
    proxy = await startFlakyProxy(sandbox.baseUrl, () => null, {
      beforeForward: async (req) => (fill && req.method === 'POST' ? dataDisk.fillLeaving(0) : undefined),
    })
    const services = await createAppServices({ dataDir, transport: 'browser', sandbox: false })
    try {
      const profile = await createOpsProfile(services, proxy, sandbox.tokens.Customer)
      const before = (await services.groups.getOrCreate(profile.id, { user_group_id: 'full' })).group.token
      fill = true
      const rotated = await services.groups.rotateToken(profile.id, { kind: 'catalog', groupId: 'full' })
      fill = false
      const serverToken = readSandboxData(sandboxFile).groups.find((group) => group.provided_id === 'full')!.token
      expect(serverToken).not.toBe(before)
      // The answer carries the new token, with the warning, and says where the copy went.
      expect(rotated.group.token).toBe(serverToken)
      expect(rotated.unsaved).toEqual({ recoveryFile: expect.any(String) })
      expect(rotated.warnings[0]).toMatch(
        /^The token was rotated, but it could not be saved \(The disk holding embed-console\.db is full\.\)\. Copy it now: the app has no other copy\. It was also written to .+ \(owner-only\)/,
      )
      const recovery = rotated.unsaved!.recoveryFile!
      expect(recovery.startsWith(dataDisk.path)).toBe(false)
      expect(await readFile(recovery, 'utf8')).toContain(`token: ${serverToken}`)
      expect((await stat(recovery)).mode & 0o777).toBe(0o600)

      // Room again: the next fetch of the group settles the rotation and keeps the server's token.
      await dataDisk.empty()
      const fetched = await services.groups.getOrCreate(profile.id, { user_group_id: 'full' })
      expect(fetched.settledRotations).toEqual([expect.objectContaining({ outcome: 'rotated' })])
      expect(await services.groups.revealToken(profile.id, 'full')).toBe(serverToken)
    } finally {
      await dataDisk.empty()
      await services.close()
    }
  })
})
