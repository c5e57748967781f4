import type { EnvironmentTag as Tag } from '../../src-shared/user-api/schemas'

/**
 * Where the server put a group (its api_environment_tag), as a badge: Customer is production's
 * red. A group of the built-in sandbox is a sandbox group, whatever its (simulated) tag: the
 * sandbox tags groups as the API does, but nothing sent there leaves this machine.
 */
export function EnvironmentTag({ tag, sandbox }: { tag: Tag; sandbox: boolean }) {
  if (sandbox) {
    return (
      <span className="badge badge--accent" title={`The sandbox tags it ${tag}, as the API would; it never reaches production.`}>
        {tag === 'Customer' ? 'Sandbox' : `Sandbox · ${tag}`}
      </span>
    )
  }
  return tag === 'Customer' ? (
    <span className="badge badge--customer" title="Customer: production">
      Customer
    </span>
  ) : (
    <span className="badge badge--accent">{tag}</span>
  )
}
