import { EmptyState } from '../../ui/EmptyState'

export default function SiteEditorScreen() {
  return (
    <EmptyState title="No site.json open">
      Open the docs site’s <code>site.json</code> or start from a template: every field gets a form, problems show as
      you type, and only a valid file can be exported.
    </EmptyState>
  )
}
