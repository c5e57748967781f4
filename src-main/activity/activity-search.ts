import type { FullTextIndex } from '../storage/full-text'

/** The activity log's full-text index: a call is found by its group's id or name, or by its error. */
export const ACTIVITY_SEARCH: FullTextIndex = {
  name: 'activity_search',
  content: 'activity',
  contentRowid: 'seq',
  columns: ['group_id', 'group_name', 'message'],
}
