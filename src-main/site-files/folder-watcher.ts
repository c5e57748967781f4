import { type FSWatcher, watch } from 'node:fs'
import { realpath, stat } from 'node:fs/promises'
import { join, relative, resolve, sep } from 'node:path'
import { MAX_CHANGED_FILES } from '../../src-shared/ipc/events'
import { MAX_WATCHED_FOLDERS } from '../../src-shared/ipc/site-calls'
import { plural } from '../../src-shared/text/plural'
import { isInside } from '../user-files/file-access'

/*
 * The docs folder watched for pages and files coming, going or changing: one handle of the
 * system's per folder (fs.watch, not recursive), never one per file, and never a folder reached
 * through a link out of the docs folder. chokidar was used before: it watches every file with a
 * handle of its own and follows links, so a folder holding a link to / made it crawl the disk
 * (1.9 GB in 10 s); what the editor needs is "something changed in these folders", and which
 * files the system named.
 */

/** Files whose change can change the check: pages, images, OpenAPI files, $ref files. */
const RELEVANT = /\.(md|mdx|svg|png|jpe?g|gif|webp|ico|avif|json|ya?ml)$/i
/** A burst of changes (a checkout, an editor's save) is announced once, this long after its last. */
const QUIET_MS = 200

/** One burst of changes: the files named (relative to the docs folder, '/' between folders), and whether there were others. */
export interface FolderChange {
  /** At most MAX_CHANGED_FILES, each once, in the order first seen. */
  changed: string[]
  /** Changes not in `changed`: past the cap, or told by the system without a file name. */
  more: boolean
}

export interface FolderWatcher {
  /** What is not watched, and why: sentences for the docs folder view. */
  notices: string[]
  close(): void
}

const relativeName = (root: string, path: string) => (path === root ? 'The docs folder' : path.slice(root.length + 1))

/**
 * Watches `folders` (relative to `root`, '' for the folder itself) without their subfolders:
 * at most `maxFolders`, each only when its real path is inside the docs folder and not in
 * the app's data folder. A folder that does not exist yet is looked for again after each change.
 * `onChange` is called once per burst of changes to relevant files, with the files it named.
 */
export async function watchFolders(
  root: string,
  dataDir: string | null,
  folders: readonly string[],
  onChange: (change: FolderChange) => void,
  maxFolders = MAX_WATCHED_FOLDERS,
): Promise<FolderWatcher> {
  const realRoot = await realpath(root).catch(() => null)
  if (realRoot === null) return { notices: [`The docs folder ${root} cannot be watched: it is gone, or cannot be read.`], close() {} }
  const realData = dataDir === null ? null : await realpath(dataDir).catch(() => resolve(dataDir))
  const named = [...new Set(folders.map((folder) => resolve(root, folder)))].filter((path) => isInside(path, root))
  const handles = new Map<string, FSWatcher>()
  const notices: string[] = []
  const linksOut: string[] = []
  let missing: string[] = []
  let timer: ReturnType<typeof setTimeout> | undefined
  /** The burst so far: its files by their relative name (a Set keeps the order first seen). */
  let burst = new Set<string>()
  let unnamed = false
  let closed = false
  let systemLimit = false

  /** `file`: the name the system gave, inside the watched folder `real`; null when it gave none. */
  const announce = (real: string, file: string | null) => {
    const name = file === null ? null : relative(realRoot, join(real, file)).split(sep).join('/')
    // Past the cap, a file already named is still known; any other is one more change not named.
    if (name !== null && (burst.size < MAX_CHANGED_FILES || burst.has(name))) burst.add(name)
    else unnamed = true
    clearTimeout(timer)
    timer = setTimeout(() => void settle(), QUIET_MS)
    timer.unref?.()
  }
  /** After a burst: folders that appeared are watched now, then the change is told. */
  const settle = async () => {
    // Taken first: a change seen while the folders are looked for is the next burst's, told after its own quiet.
    const change: FolderChange = { changed: [...burst], more: unnamed }
    burst = new Set()
    unnamed = false
    if (missing.length) {
      const waiting = missing
      missing = []
      for (const path of waiting) await add(path)
    }
    if (!closed) onChange(change)
  }

  const add = async (path: string): Promise<void> => {
    if (closed || handles.size >= maxFolders || systemLimit) return
    const real = await realpath(path).catch(() => null)
    if (real === null) {
      missing.push(path)
      return
    }
    if (!isInside(real, realRoot)) {
      linksOut.push(relativeName(root, path))
      return
    }
    if ((realData !== null && isInside(real, realData)) || handles.has(real)) return
    if (!(await stat(real).catch(() => null))?.isDirectory()) return
    try {
      const handle = watch(real, { persistent: false }, (_event, file) => {
        // Without a name (some systems), or one with no extension (a folder that may be named), look again.
        if (file === null || RELEVANT.test(file) || (missing.length > 0 && !file.includes('.'))) announce(real, file)
      })
      // A folder removed or no longer readable stops its watch; the next index says what is gone.
      handle.on('error', () => {
        handle.close()
        handles.delete(real)
      })
      handles.set(real, handle)
    } catch (error) {
      // ENOSPC: the system's limit on watched folders (inotify's max_user_watches) is reached.
      if ((error as NodeJS.ErrnoException).code === 'ENOSPC' || (error as NodeJS.ErrnoException).code === 'EMFILE') systemLimit = true
    }
  }

  await Promise.all(named.slice(0, maxFolders).map(add))
  if (named.length > maxFolders)
    notices.push(
      `The document names ${named.length.toLocaleString('en')} folders: the first ${maxFolders.toLocaleString('en')} are watched for changes; Index again shows changes in the others.`,
    )
  // Named in order whatever order the folders' look-ups ended in.
  linksOut.sort()
  if (linksOut.length)
    notices.push(
      `${plural(linksOut.length, 'folder')} the document names ${linksOut.length === 1 ? 'is a link' : 'are links'} out of the docs folder, so not watched: ${linksOut.slice(0, 5).join(', ')}${linksOut.length > 5 ? '…' : ''}. Links that lead out of the folder are never followed.`,
    )
  if (systemLimit)
    notices.push(
      `The system allows no more folders to be watched (${handles.size.toLocaleString('en')} are): Index again shows changes in the others.`,
    )
  return {
    notices,
    close() {
      closed = true
      clearTimeout(timer)
      for (const handle of handles.values()) handle.close()
      handles.clear()
    },
  }
}
