import { type ComponentType, lazy, type LazyExoticComponent } from 'react'

export interface Section {
  id: SectionId
  label: string
  description: string
  /** Ctrl/Cmd + this digit opens the section. */
  shortcut: string
  icon: string
  Screen: LazyExoticComponent<ComponentType>
}

export type SectionId = 'groups' | 'profiles' | 'site' | 'activity' | 'bulk' | 'team'

// The first screen's chunk is asked for as this module runs, in parallel with React's first
// render, rather than when that render reaches it.
const groupsScreen = import('../features/groups/GroupsScreen')

// Features never import each other; the app composes them here. Each screen loads on first use.
export const sections: Section[] = [
  {
    id: 'groups',
    label: 'Groups',
    description: 'Get or create, update and rotate the tokens of user groups.',
    shortcut: '1',
    icon: '◧',
    Screen: lazy(() => groupsScreen),
  },
  {
    id: 'profiles',
    label: 'Profiles',
    description: 'Connections to the API: base URL, API token and timeout.',
    shortcut: '2',
    icon: '⚷',
    Screen: lazy(() => import('../features/profiles/ProfilesScreen')),
  },
  {
    id: 'site',
    label: 'Site config',
    description: 'Edit and validate the docs site’s docs.json, site.json or mint.json.',
    shortcut: '3',
    icon: '⌘',
    Screen: lazy(() => import('../features/site-editor/SiteEditorScreen')),
  },
  {
    id: 'activity',
    label: 'Activity',
    description: 'Every API call made from this app, tokens redacted.',
    shortcut: '4',
    icon: '≡',
    // With the team's audit log beside this machine's, once the data folder has joined a team.
    Screen: lazy(() => import('../features/activity/ActivityViews')),
  },
  {
    id: 'bulk',
    label: 'Bulk runs',
    description: 'Get or create, update or rotate thousands of groups from a file: planned first, paced, resumable.',
    shortcut: '5',
    icon: '⇶',
    Screen: lazy(() => import('../features/bulk/BulkScreen')),
  },
  {
    id: 'team',
    label: 'Team',
    description: 'Share one audit log and catalog with your team on Postgres; no group is rotated twice, and tokens stay on this machine.',
    shortcut: '6',
    icon: '⛁',
    Screen: lazy(() => import('../features/team/TeamScreen')),
  },
]
