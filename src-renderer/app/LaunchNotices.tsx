import { useQuery } from '@tanstack/react-query'
import { useState } from 'react'
import { call } from '../lib/api'
import { queryKeys } from '../lib/query-keys'

/**
 * What main has to say about this launch (data carried over from an earlier release, a record
 * it could not read and skipped, a damaged file moved aside): shown once, until dismissed.
 */
export function LaunchNotices() {
  const info = useQuery({ queryKey: queryKeys.appInfo, queryFn: () => call('app.info', {}) })
  const [dismissed, setDismissed] = useState(false)
  const notices = info.data?.notices ?? []
  if (dismissed || notices.length === 0) return null
  return (
    <section className="launch-notices" role="status" aria-label="Notices about this launch">
      <ul>
        {notices.map((notice) => (
          <li key={notice}>{notice}</li>
        ))}
      </ul>
      <button type="button" className="btn" onClick={() => setDismissed(true)}>
        Dismiss
      </button>
    </section>
  )
}
