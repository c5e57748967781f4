import { mkdtemp } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join, resolve } from 'node:path'
import { openDraftStore } from '../../../src-main/site-files/draft-store'
import { openRecentFiles } from '../../../src-main/site-files/recent-files'
import { openRuleChoices } from '../../../src-main/site-files/rule-choices'
import { createSiteFileService } from '../../../src-main/site-files/site-file-service'
import type { FileDialogs } from '../../../src-main/user-files/file-dialogs'

/** The docs index's worker as the build writes it (npm test builds before the unit tests run). */
export const BUILT_WORKER = resolve('out/main/docs-index-worker.js')

export const tempDir = (prefix = 'ec-site-files-') => mkdtemp(join(tmpdir(), prefix))

/**
 * A service over a data folder, as the app builds it (the data folder refused to its file calls);
 * a second one over the same folder stands for the next launch.
 */
export function siteFiles(dataDir: string, options: { now?: () => Date; home?: string; dialogs?: FileDialogs } = {}) {
  return createSiteFileService({
    drafts: openDraftStore(dataDir),
    recent: openRecentFiles(dataDir, options.now),
    rules: openRuleChoices(dataDir),
    dataDir,
    ...options,
  })
}
