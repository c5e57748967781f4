import { useQuery } from '@tanstack/react-query'
import { useState } from 'react'
import type { SandboxStatus } from '../../src-shared/ipc/events'
import { queryKeys } from '../lib/query-keys'
import { call, useMainEvent } from '../lib/api'

export function StatusBar({ transport }: { transport: 'electron' | 'browser' }) {
  const info = useQuery({ queryKey: queryKeys.appInfo, queryFn: () => call('app.info', {}) })
  const [sandboxEvent, setSandboxEvent] = useState<SandboxStatus | null>(null)
  useMainEvent('sandbox.status', setSandboxEvent)
  const sandbox = sandboxEvent ?? info.data?.sandbox

  return (
    <footer className="status-bar" aria-label="Status">
      <span>{transport === 'electron' ? 'Desktop app' : 'Browser mode'}</span>
      {info.data ? (
        <span title="Where profiles, the vault, the catalog and the activity log are kept">
          Data: <code>{info.data.dataDir}</code>
        </span>
      ) : info.error ? (
        <span role="alert">Main process not answering: {info.error.message}</span>
      ) : null}
      {sandbox && sandbox.state !== 'disabled' ? (
        <span title={sandbox.message ?? sandbox.baseUrl}>
          Local sandbox: {sandbox.state}
          {sandbox.baseUrl ? ` at ${sandbox.baseUrl}` : ''}
        </span>
      ) : null}
      {info.data ? <span className="status-bar__version">v{info.data.version}</span> : null}
    </footer>
  )
}
