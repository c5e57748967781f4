import { useEffect, useState } from 'react'

/** How long typing pauses before a search is asked for: one request per word, not per keystroke. */
export const SEARCH_DEBOUNCE_MS = 150

/** `value` once it has stayed the same for `ms`; an empty one at once (clearing a search is never delayed). */
export function useDebouncedValue<T>(value: T, ms = SEARCH_DEBOUNCE_MS): T {
  const [settled, setSettled] = useState(value)
  const empty = value === ''
  useEffect(() => {
    const timer = setTimeout(() => setSettled(value), empty ? 0 : ms)
    return () => clearTimeout(timer)
  }, [value, ms, empty])
  return empty ? value : settled
}
