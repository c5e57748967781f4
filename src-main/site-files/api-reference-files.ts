import { mkdir } from 'node:fs/promises'
import { dirname, join } from 'node:path'
import { AppErrorException } from '../../src-shared/ipc/result'
import { isLoopbackUrl } from '../../src-shared/net/loopback'
import { API_REFERENCE_FILE } from '../../src-shared/site-config/api-reference'
import { apiReferenceGroups, apiReferencePageText } from '../../src-shared/site-config/api-reference-pages'
import { buildOpenApiDocument, openApiFileText } from '../../src-shared/user-api/openapi'
import type { createSerialQueue } from '../storage/serial-queue'
import { type FileAccessPolicy, fileExists, writeTextAtomically } from '../user-files/file-access'
import type { UserFileWrites } from '../user-files/user-file-writes'

// "Add the API reference": openapi.json beside the document's file, and an endpoint page for
// each operation the navigation lists that has none yet.

export interface WrittenApiReference {
  path: string
  replaced: boolean
  serverUrl: string | null
  /** The endpoint pages written, relative to the docs folder; `pagesKept` were there already and left as they are. */
  pagesWritten: string[]
  pagesKept: string[]
}

/**
 * The API reference is public documentation, published with the site: readable by all like the
 * site's other files, not owner-only as the app's own files are. A file replaced keeps its mode.
 */
const PUBLIC_FILE_MODE = 0o644

/**
 * openapi.json beside the document's file (`sitePath`): only a file main itself opened or saved
 * has a place, and the data folder is refused there too (openapi.json could be a link into it).
 */
export async function apiReferencePath(policy: FileAccessPolicy, sitePath: string | null): Promise<string> {
  if (!sitePath) {
    throw new AppErrorException(
      'not_found',
      `This document has no file yet: save it first, since the API reference is written next to it as ${API_REFERENCE_FILE}.`,
    )
  }
  return policy.resolve(join(dirname(sitePath), API_REFERENCE_FILE))
}

export interface ApiReferenceWrite {
  /** The file of the document the reference is written for; null when it has none yet. */
  sitePath: string | null
  serverUrl: string | null
  /** The answer to "Replace it?" for the openapi.json there now (user-file-writes.ts). */
  replaceToken: string | undefined
  policy: FileAccessPolicy
  writes: UserFileWrites
  /** The service's one-write-at-a-time queue. */
  runInTurn: ReturnType<typeof createSerialQueue>
}

/**
 * Writes the API reference beside the document (a file already there only with the token of the
 * question that asked), and an endpoint page for each operation that has none yet (a page there
 * is kept).
 */
export async function writeApiReferenceFiles(options: ApiReferenceWrite): Promise<WrittenApiReference> {
  const { serverUrl, policy, writes } = options
  // The document is published: an address only this computer can reach would send every reader nowhere.
  if (serverUrl !== null && isLoopbackUrl(serverUrl)) {
    throw new AppErrorException(
      'refused',
      `${serverUrl} is an address only this computer can reach: the API reference is published with the site, so it names no server there.`,
      { serverUrl },
    )
  }
  const path = await apiReferencePath(policy, options.sitePath)
  const document = buildOpenApiDocument(serverUrl === null ? {} : { serverUrl })
  const text = openApiFileText(document)
  return options.runInTurn(async () => {
    const allowed = await writes.allow(path, 'apiReference', options.replaceToken)
    // The endpoint pages the navigation lists: written where there are none; a page the
    // writer has (edited) is never replaced. Each goes through the same refusal of the data
    // folder, all of them before anything is written.
    const pages = await Promise.all(
      apiReferenceGroups(document)
        .flatMap((group) => group.pages)
        .map(async (page) => ({ page, pagePath: await policy.resolve(join(dirname(path), page.file)) })),
    )
    await writeTextAtomically(allowed.path, text, false, PUBLIC_FILE_MODE)
    const pagesWritten: string[] = []
    const pagesKept: string[] = []
    for (const { page, pagePath } of pages) {
      if (await fileExists(pagePath)) {
        pagesKept.push(page.file)
        continue
      }
      await mkdir(dirname(pagePath), { recursive: true })
      await writeTextAtomically(pagePath, apiReferencePageText(page), false, PUBLIC_FILE_MODE)
      pagesWritten.push(page.file)
    }
    return { path: allowed.path, replaced: allowed.replaces, serverUrl, pagesWritten, pagesKept }
  })
}
