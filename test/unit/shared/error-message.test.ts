import { mkdtemp, rm } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterEach, describe, expect, it } from 'vitest'
import { z } from 'zod'
import { readJsonFile } from '../../../src-main/storage/json-file'
import { messageOf } from '../../../src-shared/ipc/error-message'
import { AppErrorException } from '../../../src-shared/ipc/result'

describe('messageOf: the sentence of anything thrown', () => {
  it('is an Error’s message, without its name or stack', () => {
    expect(messageOf(new Error('The disk is full.'))).toBe('The disk is full.')
    expect(messageOf(new TypeError('x is not a function'))).toBe('x is not a function')
    expect(messageOf(new AppErrorException('refused', 'This data folder has not joined a team.'))).toBe(
      'This data folder has not joined a team.',
    )
  })

  it('is the value as text when what was thrown is not an Error', () => {
    expect(messageOf('the worker stopped')).toBe('the worker stopped')
    expect(messageOf(42)).toBe('42')
    expect(messageOf(undefined)).toBe('undefined')
    expect(messageOf({ code: 'EIO' })).toBe('[object Object]')
  })

  describe('through a caller: a data file that cannot be read', () => {
    let dir = ''
    afterEach(() => rm(dir, { recursive: true, force: true }))

    it('names the file and says the system’s reason', async () => {
      dir = await mkdtemp(join(tmpdir(), 'embed-console-message-'))
      // A folder where the JSON file should be: reading it fails with EISDIR, not ENOENT.
      const read = readJsonFile(dir, z.object({}))
      await expect(read).rejects.toMatchObject({
        code: 'file_io',
        message: expect.stringMatching(/^embed-console-message-\w+ could not be read: EISDIR: illegal operation on a directory, read$/),
      })
    })
  })
})
