import { AppErrorException } from '../../src-shared/ipc/result'
import type { UserApiClient } from './client'

/**
 * The user_group_id "Test connection" updates. Reserved by Embed Console: nobody names a group
 * this way, so the update finds nothing; and as the request carries no field to change, even a
 * group that did exist would be left as it was.
 */
export const CONNECTION_CHECK_GROUP_ID = 'embed-console:connection-check:reserved'

export interface ConnectionCheck {
  /** 404 (the API found no such group) or 200 (it found one and changed nothing). */
  status: number
  durationMs: number
}

/**
 * Proves the base URL reaches the API and the API accepts the token, without creating or
 * changing anything: a PUT of the reserved id alone. The API's own 404 answer means both are
 * fine; anything else fails with the client's error (401/403: the API token was refused;
 * a 404 that is not the API's envelope: the base URL is wrong).
 */
export async function checkConnection(client: UserApiClient): Promise<ConnectionCheck> {
  try {
    const { status, durationMs } = await client.update({ user_group_id: CONNECTION_CHECK_GROUP_ID })
    return { status, durationMs }
  } catch (error) {
    if (error instanceof AppErrorException && error.code === 'api_failure') {
      const { status, durationMs } = error.details as ConnectionCheck
      if (status === 404) return { status, durationMs }
    }
    throw error
  }
}
