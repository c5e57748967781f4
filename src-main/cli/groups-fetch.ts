import { AppErrorException } from '../../src-shared/ipc/result'
import { plural } from '../../src-shared/text/plural'
import type { AppServices } from '../app-services'
import { parseBulkInput } from '../bulk/bulk-input'

/*
 * `groups apply FILE --profile NAME --fetch`: the current token of every group the file lists,
 * fetched (a get-or-create with the id alone, which changes nothing) and kept for the profile.
 * After a colleague's rotations, the tokens kept here are stale and a rotation plan is refused
 * row by row: this brings them current in one command. Only groups this profile or the team
 * knows are fetched: for any other, a get-or-create would create it.
 */

const AT_ONCE = 4

export interface FetchSummary {
  fetched: number
  /** Fetched, and the token kept here was not the group's current one (the team knew it as stale). */
  renewed: number
  skipped: number
  failed: number
}

export async function fetchListed(
  services: AppServices,
  profileId: string,
  text: string,
  fileName: string,
  say: (sentence: string) => void,
): Promise<FetchSummary> {
  const parsed = parseBulkInput(text, fileName, 'rotate')
  const ids = [...new Set(parsed.rows.map((row) => row.request.user_group_id))]
  const summary: FetchSummary = { fetched: 0, renewed: 0, skipped: 0, failed: 0 }
  const known = async (id: string) => {
    if (services.team.group(profileId, id)) return true
    const answer = await services.router.dispatch('catalog.get', { profileId, groupId: id }, { transport: 'browser' })
    return answer.ok && (answer.value as { entry: unknown }).entry !== null
  }
  let next = 0
  const worker = async () => {
    for (let index = next++; index < ids.length; index = next++) {
      const id = ids[index]!
      if (!(await known(id))) {
        summary.skipped += 1
        say(`${fileName}: ${id}: not a group this profile or the team knows (a fetch would create it): left alone.`)
        continue
      }
      const stale = services.team.group(profileId, id)?.token === 'stale'
      try {
        await services.groups.getOrCreate(profileId, { user_group_id: id })
        summary.fetched += 1
        if (stale) summary.renewed += 1
      } catch (error) {
        if (!(error instanceof AppErrorException)) throw error
        summary.failed += 1
        say(`${fileName}: ${id}: ${error.message}`)
      }
    }
  }
  await Promise.all(Array.from({ length: AT_ONCE }, worker))
  if (parsed.problems.length) say(`${fileName}: ${plural(parsed.problems.length, 'row')} could not be read, and were left out.`)
  return summary
}

export const fetchSentence = (summary: FetchSummary) =>
  `Fetched ${plural(summary.fetched, 'group')} (${summary.renewed} had a newer token than the one kept here, now kept)` +
  `${summary.skipped ? `, left ${summary.skipped} unknown alone` : ''}${summary.failed ? `, ${summary.failed} failed` : ''}.`
