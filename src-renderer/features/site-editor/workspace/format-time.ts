/** "14:03" today, "12 Mar, 14:03" another day: when an autosaved draft was written. */
export function formatWhen(iso: string, now = new Date()): string {
  const when = new Date(iso)
  const time = when.toLocaleTimeString([], { hour: '2-digit', minute: '2-digit' })
  return when.toDateString() === now.toDateString() ? time : `${when.toLocaleDateString([], { day: 'numeric', month: 'short' })}, ${time}`
}

/** The folder part of a path, for showing beside a file name. */
export const folderOf = (path: string) => path.replace(/[\\/][^\\/]*$/, '') || path
