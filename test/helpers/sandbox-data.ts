import Libsql from 'libsql'

/** What a sandbox database holds, read as another process would: groups by id, and the kept API tokens. */
export function readSandboxData(path: string): {
  apiTokens: Record<string, string>
  groups: Array<{ provided_id: string; environment: string; token: string }>
} {
  const db = new Libsql(path, { readonly: true })
  try {
    const apiTokens = Object.fromEntries(
      (db.prepare('SELECT environment, token FROM api_tokens').all() as Array<{ environment: string; token: string }>).map((row) => [
        row.environment,
        row.token,
      ]),
    )
    const groups = db.prepare('SELECT provided_id, environment, token FROM groups ORDER BY team_id').all() as Array<{
      provided_id: string
      environment: string
      token: string
    }>
    return { apiTokens, groups }
  } finally {
    db.close()
  }
}
