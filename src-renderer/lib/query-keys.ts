import type { z } from 'zod'
import type { ActivityFilter } from '../../src-shared/activity/schemas'
import type { CatalogQuerySchema } from '../../src-shared/catalog/schemas'
import type { TeamActivityQuerySchema } from '../../src-shared/team/schemas'

/**
 * Every query key of the renderer, typed, in one place (a test fails on a key written by hand
 * elsewhere): a screen that changes data invalidates by these prefixes, so a misspelt string can
 * no longer miss a cache.
 */
export const queryKeys = {
  appInfo: ['app.info'] as const,
  profiles: ['profiles'] as const,
  /** Whether this window has the system's file dialogs (app.info's fileDialogs, a boolean: see lib/uses-file-dialogs.ts). */
  fileDialogs: ['window', 'fileDialogs'] as const,
  catalog: {
    /** Every catalog query of every profile: what a group call or a profile deletion invalidates. */
    all: ['catalog'] as const,
    /** A window of a list (its search, filter and order), by its number: where it starts is worked out when it is fetched. */
    window: (profileId: string, list: Omit<z.input<typeof CatalogQuerySchema>, 'profileId' | 'at'>, window = 0) =>
      ['catalog', profileId, 'window', list, window] as const,
    entry: (profileId: string | undefined, groupId: string) => ['catalog', profileId, 'entry', groupId] as const,
  },
  activity: {
    /** Every page and entry of the log: what any API call invalidates. */
    all: ['activity'] as const,
    pages: (filter: ActivityFilter) => ['activity', 'pages', filter] as const,
    entry: (id: string) => ['activity', 'entry', id] as const,
  },
  team: {
    /** Everything team mode shows: what joining, leaving or any group call invalidates. */
    all: ['team'] as const,
    status: ['team', 'status'] as const,
    activity: (query: Omit<z.input<typeof TeamActivityQuerySchema>, 'cursor'>) => ['team', 'activity', query] as const,
    /** Under the catalog's prefix: every group call refreshes it with the catalog (a fetch may make a stale token current). */
    group: (profileId: string, groupId: string) => ['catalog', profileId, 'team', groupId] as const,
  },
  site: {
    recent: ['site', 'recent'] as const,
    drafts: ['site', 'drafts'] as const,
  },
  bulk: {
    /** Every run and row: what a run's progress invalidates. */
    all: ['bulk'] as const,
    runs: ['bulk', 'runs'] as const,
    run: (runId: string) => ['bulk', 'run', runId] as const,
    /** A run's rows as the panel shows them; `done` (the rows sent so far) refetches them as the run goes on. */
    items: (runId: string, view: { outcome: string; search: string; done: number }) => ['bulk', 'items', runId, view] as const,
    /** A plan's rows before it is sent, narrowed to one action ('' for all). */
    planned: (runId: string, action: string) => ['bulk', 'planned', runId, action] as const,
  },
}
