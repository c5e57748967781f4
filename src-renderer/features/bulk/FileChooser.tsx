import { useId } from 'react'
import type { InputEncoding } from '../../../src-shared/bulk/decode'
import type { BulkKind } from '../../../src-shared/bulk/schemas'

interface FileChooserProps {
  kind: BulkKind
  /** The file chosen, once it was read as text. */
  fileName: string | undefined
  onFile(file: File | undefined): Promise<void>
}

/** The file picker, and what a file should hold until one is chosen (a file may be dropped too). */
export function FileChooser({ kind, fileName, onFile }: FileChooserProps) {
  const fileInputId = useId()
  return (
    <div className="row">
      <label htmlFor={fileInputId} className="btn">
        Choose a file…
      </label>
      <input
        id={fileInputId}
        className="visually-hidden"
        type="file"
        accept=".csv,.tsv,.json,.jsonl,.ndjson,.txt"
        aria-label="File of groups"
        // Emptied once taken, so choosing the same file again reads it again.
        onChange={(event) => void onFile(event.target.files?.[0]).finally(() => (event.target.value = ''))}
      />
      <span className="muted">
        {fileName !== undefined
          ? fileName
          : kind === 'rotate'
            ? 'A CSV with a user_group_id column, or JSON: the groups to rotate. Or drop a file here.'
            : 'CSV (user_group_id, name, mapping, properties), a JSON array or JSON Lines; up to 100,000 rows. Or drop a file here.'}
      </span>
    </div>
  )
}

/** A file that is not UTF-8: why, and the one other reading offered. */
export function NotTextWarning({ message, onRead }: { message: string; onRead(encoding: InputEncoding): void }) {
  return (
    <div className="callout callout--warning stack" role="alert">
      <span>{message}</span>
      <div className="row">
        <button type="button" className="btn btn--small" onClick={() => onRead('windows-1252')}>
          Read as Windows-1252
        </button>
      </div>
    </div>
  )
}
