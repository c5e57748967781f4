import { useQuery } from '@tanstack/react-query'
import { useState } from 'react'
import type { SandboxStatus } from '../../src-shared/ipc/events'
import type { ProfileView } from '../../src-shared/profiles/schemas'
import { call, useMainEvent } from '../lib/api'
import { isProductionProfile, useActiveProfile } from '../lib/profiles'
import { queryKeys } from '../lib/query-keys'

const hostOf = (baseUrl: string) => {
  try {
    return new URL(baseUrl).host
  } catch {
    return baseUrl
  }
}

/** Where the next write goes, first in the bar: production in its red, the sandbox as this machine. */
function WriteTarget({ profile }: { profile: ProfileView }) {
  if (profile.builtin) return <span className="status-bar__target">Writes go to the local sandbox, on this machine</span>
  if (isProductionProfile(profile))
    return (
      <span className="status-bar__target status-bar__target--production">
        Writes go to production: “{profile.name}” at {hostOf(profile.baseUrl)}
      </span>
    )
  const kind = profile.environmentKind === 'testing' ? ' (Testing)' : ''
  return (
    <span className="status-bar__target">
      Writes go to “{profile.name}”{kind} at {hostOf(profile.baseUrl)}
    </span>
  )
}

export function StatusBar({ transport }: { transport: 'electron' | 'browser' }) {
  const { active } = useActiveProfile()
  const info = useQuery({ queryKey: queryKeys.appInfo, queryFn: () => call('app.info', {}) })
  const [sandboxEvent, setSandboxEvent] = useState<SandboxStatus | null>(null)
  useMainEvent('sandbox.status', setSandboxEvent)
  const sandbox = sandboxEvent ?? info.data?.sandbox

  return (
    <footer className={isProductionProfile(active) ? 'status-bar status-bar--production' : 'status-bar'} aria-label="Status">
      {active ? <WriteTarget profile={active} /> : null}
      <span>{transport === 'electron' ? 'Desktop app' : 'Browser mode'}</span>
      {info.data ? (
        <span title="Where profiles, the vault, the catalog and the activity log are kept">
          Data: <code>{info.data.dataDir}</code>
        </span>
      ) : info.error ? (
        <span role="alert">Main process not answering: {info.error.message}</span>
      ) : null}
      {/* The sandbox's own state, where it matters: it is where writes go, or it failed. */}
      {sandbox && sandbox.state !== 'disabled' && (active?.builtin || sandbox.state === 'failed') ? (
        <span title={sandbox.message ?? sandbox.baseUrl}>
          Local sandbox: {sandbox.state}
          {sandbox.baseUrl ? ` at ${sandbox.baseUrl}` : ''}
        </span>
      ) : null}
      {info.data ? <span className="status-bar__version">v{info.data.version}</span> : null}
    </footer>
  )
}
