import { useState } from 'react'
import { useTeamStatus } from '../../lib/team'
import { TabList } from '../../ui/TabList'
import ActivityScreen from './ActivityScreen'
import { TeamActivity } from './TeamActivity'

type View = 'machine' | 'team'

const VIEWS: readonly { id: View; label: string }[] = [
  { id: 'machine', label: 'This machine' },
  { id: 'team', label: 'Team' },
]

/**
 * Activity: this machine's calls, and in a data folder joined to a team, the team's shared audit
 * log beside it. One person's mode sees the log as it always was.
 */
export default function ActivityViews() {
  const team = useTeamStatus()
  const [view, setView] = useState<View>('machine')
  if (!team.data?.joined) return <ActivityScreen />
  return (
    <div className="stack">
      <TabList<View>
        label="Whose calls"
        tabs={VIEWS}
        selected={view}
        onSelect={setView}
        idPrefix="activity-view"
        panelId="activity-view-panel"
      />
      <div id="activity-view-panel" role="tabpanel" aria-labelledby={`activity-view-${view}`}>
        {view === 'team' ? <TeamActivity /> : <ActivityScreen />}
      </div>
    </div>
  )
}
