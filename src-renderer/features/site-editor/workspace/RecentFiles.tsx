import { useQuery } from '@tanstack/react-query'
import { call } from '../../../lib/api'
import { queryKeys } from '../../../lib/query-keys'
import { fileNameOf } from '../state/file-commands'
import { folderOf, formatWhen } from './format-time'

/** The files opened or saved lately, each a button that opens it. */
export function RecentFiles({ onOpen, headingLevel = 3 }: { onOpen: (path: string) => void; headingLevel?: 2 | 3 }) {
  const recent = useQuery({ queryKey: queryKeys.site.recent, queryFn: () => call('site.recent', {}) })
  const files = recent.data?.files ?? []
  const Heading = headingLevel === 2 ? 'h2' : 'h3'
  if (recent.isError) return <p className="error-text">Recent files could not be read: {recent.error.message}</p>
  if (!files.length) return null
  return (
    <div className="recent-files">
      <Heading className="recent-files__title" id="recent-files-title">
        Recent files
      </Heading>
      <ul className="recent-files__list" aria-labelledby="recent-files-title">
        {files.map((file) => (
          <li key={file.path}>
            <button type="button" className="recent-file" onClick={() => onOpen(file.path)} title={file.path}>
              <span className="recent-file__name">{fileNameOf(file.path)}</span>
              <span className="recent-file__folder">{folderOf(file.path)}</span>
              <span className="recent-file__when">{formatWhen(file.openedAt)}</span>
            </button>
          </li>
        ))}
      </ul>
    </div>
  )
}
