import { AppErrorException } from '../../src-shared/ipc/result'
import type { SaveTarget } from '../../src-shared/ipc/site-calls'
import { resolveUserPath } from '../user-files/file-access'
import type { FileDialogs } from '../user-files/file-dialogs'
import type { UserFileWrites } from '../user-files/user-file-writes'

export interface SaveTargetChoice {
  target: SaveTarget
  purpose: 'saveAs' | 'export'
  /** The document's file, where the dialog opens; null when it has none yet. */
  current: string | null
  /** The desktop app's dialogs: with them a path is chosen there, never typed; without them it is typed. */
  dialogs: FileDialogs | undefined
  writes: UserFileWrites
  /** What `~` stands for in a typed path (the user's home folder unless a test says otherwise). */
  home: string | undefined
}

/**
 * The path a Save as or an Export writes to: the save dialog's answer, or a typed path that must
 * not replace a file unless the writer answered the replace question for that very file. Null
 * when the dialog was cancelled.
 */
export async function chooseSaveTarget({ target, purpose, current, dialogs, writes, home }: SaveTargetChoice): Promise<string | null> {
  if (target.kind === 'dialog') {
    if (!dialogs) throw new AppErrorException('refused', 'This window has no file dialogs: type the path instead.')
    const chosen = await dialogs.chooseFileToSave(purpose, current)
    // The dialog asked before replacing a file; links and the data folder are refused all the same.
    return chosen === null ? null : (await writes.allow(chosen, purpose, undefined, true)).path
  }
  if (dialogs) throw new AppErrorException('refused', 'The desktop app chooses where to write with its save dialog, not a typed path.')
  return (await writes.allow(resolveUserPath(target.path, home), purpose, target.replaceToken)).path
}
