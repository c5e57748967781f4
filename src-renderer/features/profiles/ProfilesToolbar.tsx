import { type ChangeEvent, useRef } from 'react'
import { plural } from '../../../src-shared/text/plural'
import { call } from '../../lib/api'
import { downloadText } from '../../lib/download'
import { toast } from '../../ui/toasts'

async function exportProfiles() {
  try {
    const file = await call('profiles.export', {})
    downloadText('embed-console-profiles.json', 'application/json', file.text)
    toast.success(`Exported ${plural(file.count, 'profile')}, without tokens.`)
  } catch (error) {
    toast.error((error as Error).message)
  }
}

async function importProfiles(event: ChangeEvent<HTMLInputElement>, onImported: () => void) {
  const file = event.target.files?.[0]
  // Emptied at once, so choosing the same file again imports it again.
  event.target.value = ''
  if (!file) return
  try {
    const result = await call('profiles.import', { text: await file.text() })
    toast.success(`Imported ${plural(result.imported, 'profile')}: ${result.names.join(', ')}. Add their API tokens to use them.`)
    onImported()
  } catch (error) {
    toast.error(`Import failed: ${(error as Error).message}`)
  }
}

interface ProfilesToolbarProps {
  /** There are saved profiles to export (the built-in sandbox is not one). */
  canExport: boolean
  onNew(): void
  onImported(): void
}

/** New profile, and the profiles file: imported (without tokens) and exported (never with them). */
export function ProfilesToolbar({ canExport, onNew, onImported }: ProfilesToolbarProps) {
  const importInput = useRef<HTMLInputElement>(null)
  return (
    <div className="toolbar" role="toolbar" aria-label="Profile tools">
      <button type="button" className="btn btn--primary" onClick={onNew}>
        New profile
      </button>
      <span className="toolbar__spacer" />
      <button type="button" className="btn" onClick={() => importInput.current?.click()}>
        Import…
      </button>
      <input
        ref={importInput}
        type="file"
        accept="application/json,.json"
        hidden
        aria-label="Profiles file to import"
        onChange={(event) => void importProfiles(event, onImported)}
      />
      <button type="button" className="btn" onClick={() => void exportProfiles()} disabled={!canExport}>
        Export
      </button>
    </div>
  )
}
