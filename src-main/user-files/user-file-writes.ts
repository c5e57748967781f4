import { randomBytes } from 'node:crypto'
import type { Stats } from 'node:fs'
import { lstat, stat } from 'node:fs/promises'
import { basename } from 'node:path'
import { AppErrorException } from '../../src-shared/ipc/result'
import type { FileAccessPolicy } from './file-access'

/*
 * The one rule for writing to a path the operator named (a site file saved as, an export, the API
 * reference, a bulk run's results): a new file, or the replacement of an existing one that the
 * operator confirmed with a one-use token main handed out for that file as it was (its path and
 * identity: device, inode, size and time of change). Never through a link, never into the data
 * folder, never over anything but a regular file. The renderer's word alone replaces nothing.
 */

/** A "Replace it?" answered yes is good for this long, and for one write. */
const REPLACE_TOKEN_MS = 10 * 60_000

interface Question {
  purpose: string
  path: string
  identity: string
  expires: number
}

const identityOf = (info: Stats) => `${info.dev}:${info.ino}:${info.size}:${info.mtimeMs}`

export interface ReplaceQuestion {
  path: string
  existing: { size: number; modifiedAt: string; replaceToken: string } | null
}

export class UserFileWrites {
  private readonly questions = new Map<string, Question>()

  constructor(
    private readonly policy: FileAccessPolicy,
    private readonly now: () => number = Date.now,
  ) {}

  /**
   * The real path a write to `path` may go to, or a refusal: a `conflict` whose details carry the
   * token that answers "Replace it?" for the file as it is now. `asked`: the system's save dialog
   * already asked before replacing (the desktop app).
   */
  async allow(
    path: string,
    purpose: string,
    replaceToken: string | undefined,
    asked = false,
  ): Promise<{ path: string; replaces: boolean }> {
    const { real, existing } = await this.inspect(path)
    if (!existing || asked || this.take(replaceToken, purpose, real, existing)) return { path: real, replaces: existing !== null }
    const question = replaceToken
      ? `${basename(real)} is not the file you agreed to replace: it changed since, or the answer is over 10 minutes old. Replace it as it is now?`
      : `A file named ${basename(real)} already exists there. Replace it?`
    throw new AppErrorException('conflict', question, { path: real, replaceToken: this.issue(purpose, real, existing) })
  }

  /** The question asked ahead (the API reference dialog shows it before writing). */
  async ask(path: string, purpose: string): Promise<ReplaceQuestion> {
    const { real, existing } = await this.inspect(path)
    if (!existing) return { path: real, existing: null }
    return {
      path: real,
      existing: {
        size: existing.size,
        modifiedAt: new Date(existing.mtimeMs).toISOString(),
        replaceToken: this.issue(purpose, real, existing),
      },
    }
  }

  private async inspect(path: string): Promise<{ real: string; existing: Stats | null }> {
    // A link is refused outright: replacing "through" it would write wherever it points.
    const link = await lstat(path).catch(() => undefined)
    if (link?.isSymbolicLink())
      throw new AppErrorException('refused', `${basename(path)} is a link: name the file itself, not a link to it.`, { path })
    const real = await this.policy.resolve(path)
    const existing = await stat(real).catch(() => null)
    if (existing?.isDirectory()) throw new AppErrorException('file_io', `${real} is a folder, not a file.`, { path: real })
    if (existing && !existing.isFile())
      throw new AppErrorException('file_io', `${real} is not a regular file: give a file name.`, { path: real })
    return { real, existing }
  }

  private issue(purpose: string, path: string, info: Stats): string {
    const token = randomBytes(24).toString('base64url')
    this.questions.set(token, { purpose, path, identity: identityOf(info), expires: this.now() + REPLACE_TOKEN_MS })
    return token
  }

  /** Whether `token` answered the question for this file as it is now; a token is good once. */
  private take(token: string | undefined, purpose: string, path: string, info: Stats): boolean {
    if (token === undefined) return false
    const question = this.questions.get(token)
    this.questions.delete(token)
    return (
      question !== undefined &&
      question.purpose === purpose &&
      question.path === path &&
      question.identity === identityOf(info) &&
      question.expires > this.now()
    )
  }
}
