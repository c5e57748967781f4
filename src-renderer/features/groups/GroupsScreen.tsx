import { EmptyState } from '../../ui/EmptyState'

export default function GroupsScreen() {
  return (
    <EmptyState title="No user groups yet">
      Get or create a user group, update its name, mapping and properties, or rotate its token. Every group you touch
      through Embed Console is remembered here, per connection profile.
    </EmptyState>
  )
}
