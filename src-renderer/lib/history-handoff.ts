import { createHandoff } from './handoff'

/** "History" from a group of the catalog (Groups → Activity): that group's calls through that profile. */
export interface HistoryRequest {
  profileId: string
  groupId: string
}

export const useHistoryHandoff = createHandoff<HistoryRequest>()
