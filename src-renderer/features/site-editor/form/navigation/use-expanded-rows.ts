import { useCallback, useState } from 'react'

/** The rows of a navigation editor that are open, and a toggle for one; `initial` gives the set the editor opens with. */
export function useExpandedRows<Key>(initial: () => ReadonlySet<Key>) {
  const [expanded, setExpanded] = useState<ReadonlySet<Key>>(initial)
  const toggle = useCallback((key: Key) => {
    setExpanded((open) => {
      const next = new Set(open)
      if (!next.delete(key)) next.add(key)
      return next
    })
  }, [])
  return { expanded, setExpanded, toggle }
}
