import pg from 'pg'
import { afterAll, describe, expect, it } from 'vitest'
import { addOperator, migrateTeam } from '../../../src-main/team/team-admin'
import { TeamLink } from '../../../src-main/team/team-link'
import { parseTeamUrl, pgConnection } from '../../../src-main/team/team-url'
import { makeCertificates } from '../../helpers/company-network'
import { startPostgres } from '../../helpers/postgres'

/*
 * The team database over TLS as docs/team-mode.md has the DBA set it up (ssl on, pg_hba.conf
 * taking TLS only), with a private certificate authority: sslmode=require really encrypts, and
 * each way a connection is refused gets the sentence that says what to change, never "wrong
 * password".
 */

const certificates = makeCertificates()
const started = await startPostgres({ tls: certificates.server, tlsOnly: true })
if (typeof started === 'string') console.warn(`Team-mode tests skipped: ${started}.`)
const cluster = typeof started === 'string' ? null : started
afterAll(() => cluster?.stop())

const address = (user: string, settings: string) => `${cluster!.url(user)}${settings}`

describe.skipIf(!cluster)('the team database over TLS', () => {
  it('sslmode=require encrypts; no sslmode on a TLS-only server, an unknown authority or another host name each say what to change', async () => {
    await migrateTeam(`${cluster!.adminUrl}?sslmode=require`)
    const { password } = await addOperator({ url: `${cluster!.adminUrl}?sslmode=require`, name: 'ops-tls', resetPassword: false })

    // require: TLS, the certificate unchecked (accepted on this computer only).
    const client = new pg.Client(pgConnection(parseTeamUrl(address('ops-tls', '?sslmode=require')).url, password))
    await client.connect()
    expect((await client.query('SELECT ssl FROM pg_stat_ssl WHERE pid = pg_backend_pid()')).rows).toEqual([{ ssl: true }])
    await client.end()
    // verify-ca with the private authority: the chain checked, not the name.
    const verified = new TeamLink(parseTeamUrl(address('ops-tls', `?sslmode=verify-ca&sslrootcert=${certificates.caFile}`)), password)
    expect(await verified.whoami()).toMatchObject({ user: 'ops-tls', operator: true })
    await verified.close()

    const refusal = async (settings: string) => {
      const link = new TeamLink(parseTeamUrl(address('ops-tls', settings)), password)
      try {
        await link.whoami()
        return 'connected'
      } catch (error) {
        return (error as Error).message
      } finally {
        await link.close()
      }
    }
    expect(await refusal('')).toBe(
      'The team database lets “ops-tls” in from this computer only over TLS (no pg_hba.conf entry for host "127.0.0.1", user "ops-tls", database "embed_team", no encryption): add ?sslmode=verify-full to the address.',
    )
    expect(await refusal('?sslmode=verify-full')).toMatch(
      /^The team database’s certificate is not signed by an authority this computer trusts \([A-Z_]+\): add &sslrootcert=\/path\/to\/ca\.pem to the address, the certificate of the authority that signed it \(your DBA has it\)\.$/,
    )
    expect(await refusal(`?sslmode=verify-full&sslrootcert=${certificates.caFile}`)).toMatch(
      /^The team database’s certificate is not for the host in the address \(.*127\.0\.0\.1.*\): use the name the certificate was issued for\.$/,
    )
  })
})
