import { EmptyState } from '../../ui/EmptyState'

export default function ActivityScreen() {
  return (
    <EmptyState title="No activity yet">
      Every call to the API is listed here with its time, profile, operation, outcome and duration. Tokens are always
      redacted.
    </EmptyState>
  )
}
