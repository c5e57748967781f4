import { realpath, stat, statfs } from 'node:fs/promises'
import { AppErrorException } from '../../src-shared/ipc/result'

/*
 * Folders whose files describe the running system instead of holding the operator's:
 * /proc/self/environ reads as a regular file and holds the environment (a proxy password with
 * it), /dev/zero never ends. Nothing under them is opened or written, however the path is spelled:
 * every path the operator names is checked here once its links are resolved. Small on purpose,
 * since the CLI's commands load it too.
 */

const SYSTEM_FOLDERS = ['/proc', '/sys', '/dev']
const ignoresCase = process.platform === 'darwin'

/** The system folder a real path lies in, or null (always null on Windows, which has none). */
export function systemFolderOf(realPath: string, platform = process.platform): string | null {
  if (platform === 'win32') return null
  const path = ignoresCase ? realPath.toLowerCase() : realPath
  return SYSTEM_FOLDERS.find((folder) => path === folder || path.startsWith(`${folder}/`)) ?? null
}

/** Throws the refusal when `real`, the real path of `path`, lies in a system folder. */
export function refuseSystemFolder(path: string, real: string): void {
  const folder = systemFolderOf(real)
  if (folder === null) return
  throw new AppErrorException(
    'refused',
    `${path} is under ${folder}, whose files describe the running system (and can hold its secrets) rather than hold yours: Embed Console never opens or writes anything under /proc, /sys or /dev.`,
    { path },
  )
}

/** Refuses a path the operator named that leads under /proc, /sys or /dev; one that does not exist is for its reader to report. */
export async function refuseSystemPath(path: string): Promise<void> {
  const real = await realpath(path).catch(() => null)
  if (real !== null) refuseSystemFolder(path, real)
}

/** procfs and sysfs as statfs names them: their files are the system's, whatever path reached them. */
const SYSTEM_FILE_SYSTEMS = new Set([0x9fa0, 0x62656572])
let systemDevices: Promise<ReadonlyMap<number, string>> | null = null

/**
 * The system folder an open file's device is, or null: the last check of a read, since a path
 * checked can be swapped for a link before it is opened. Only /proc and /sys where they are
 * mounted (an unmounted /proc is a plain folder of the root file system).
 */
export async function systemFolderOfDevice(device: number): Promise<string | null> {
  systemDevices ??= Promise.all(
    ['/proc', '/sys'].map(async (folder) => {
      const [info, fileSystem] = await Promise.all([stat(folder), statfs(folder)]).catch(() => [null, null] as const)
      return info && fileSystem && SYSTEM_FILE_SYSTEMS.has(fileSystem.type) ? ([info.dev, folder] as const) : null
    }),
  ).then((devices) => new Map(devices.filter((entry) => entry !== null)))
  return (await systemDevices).get(device) ?? null
}
