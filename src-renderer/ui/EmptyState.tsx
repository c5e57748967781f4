import type { ReactNode } from 'react'

export function EmptyState({ title, children, action }: { title: string; children: ReactNode; action?: ReactNode }) {
  return (
    <div className="empty-state" role="status">
      <h2 className="empty-state__title">{title}</h2>
      <div className="empty-state__body">{children}</div>
      {action ? <div className="empty-state__action">{action}</div> : null}
    </div>
  )
}
