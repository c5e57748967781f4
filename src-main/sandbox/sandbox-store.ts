import { mkdir } from 'node:fs/promises'
import { dirname } from 'node:path'
import { AppErrorException } from '../../src-shared/ipc/result'
import { readJsonFile, SaveQueue, writeJsonFile } from '../storage/json-file'
import { emptySandboxData, SandboxDataSchema, type SandboxData } from './sandbox-groups'

export interface SandboxStore {
  /** The live data: change it in place, then `save()`. */
  data: SandboxData
  /** Resolves once a save that began after this call is on disk. */
  save(): Promise<void>
  /** Waits for the saves under way, for a clean stop. */
  settle(): Promise<void>
}

/**
 * The sandbox's JSON file: read at start (an unreadable one is moved aside and reported), then
 * written atomically, one save at a time, bursts coalesced, so concurrent requests never
 * interleave two writes.
 */
export async function openSandboxStore(dataFile: string, log: (line: string) => void): Promise<SandboxStore> {
  await mkdir(dirname(dataFile), { recursive: true, mode: 0o700 })
  const loaded = await readJsonFile(dataFile, SandboxDataSchema)
  if (loaded.state === 'moved-aside') log(`${loaded.notice} The sandbox starts empty.`)
  const data = loaded.state === 'read' ? loaded.value : emptySandboxData()

  const saves = new SaveQueue(() => writeJsonFile(dataFile, data))
  const underWay = new Set<Promise<void>>()
  const save = async () => {
    const saving = saves.request()
    underWay.add(saving)
    try {
      await saving
    } finally {
      underWay.delete(saving)
    }
  }
  return {
    data,
    save: async () => {
      try {
        await save()
      } catch (error) {
        throw new AppErrorException('file_io', `The sandbox could not save its data to ${dataFile}: ${(error as Error).message}.`)
      }
    },
    settle: async () => {
      await Promise.allSettled(underWay)
    },
  }
}
