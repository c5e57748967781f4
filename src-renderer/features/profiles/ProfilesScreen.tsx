import { EmptyState } from '../../ui/EmptyState'

export default function ProfilesScreen() {
  return (
    <EmptyState title="No connection profiles yet">
      A profile is a base URL and an API token. The token stays in the app’s main process, encrypted at rest, and is
      never shown again once saved.
    </EmptyState>
  )
}
