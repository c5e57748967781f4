import { appendFile, cp, mkdtemp, readdir, readFile } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join, resolve } from 'node:path'
import { describe, expect, it } from 'vitest'
import { createAppServices } from '../../../src-main/app-services'
import { startSandbox } from '../../../src-main/sandbox/sandbox-server'
import { createUserApiClient } from '../../../src-main/user-api/client'
import { fakeSafeStorage } from '../profiles/helpers'

const FIXTURE = resolve('test/fixtures/legacy-data-0.1.0/data')
const LEGACY_FILES = ['activity.jsonl', 'catalog.json', 'profiles.json', 'sandbox.json', 'vault.json', 'vault.plain.json']

/** A copy of the folder release 0.1.0 wrote, so each test starts from it untouched. */
async function legacyFolder(): Promise<string> {
  const dir = await mkdtemp(join(tmpdir(), 'ec-legacy-'))
  await cp(FIXTURE, dir, { recursive: true })
  return dir
}

const json = async (dir: string, name: string) => JSON.parse(await readFile(join(dir, name), 'utf8'))

type Ok<T> = { ok: true; value: T }

describe('first start over a data folder written by release 0.1.0', () => {
  it('imports every profile, token, group and call, and keeps each file as *.migrated', async () => {
    const dir = await legacyFolder()
    const before = {
      profiles: (await json(dir, 'profiles.json')).profiles as Array<{ id: string; name: string; baseUrl: string }>,
      keychain: (await json(dir, 'vault.json')).entries as Record<string, unknown>,
      plaintext: (await json(dir, 'vault.plain.json')).entries as Record<string, { secret: string }>,
      catalog: (await json(dir, 'catalog.json')).groups as Array<Record<string, unknown>>,
      activity: (await readFile(join(dir, 'activity.jsonl'), 'utf8'))
        .trim()
        .split('\n')
        .map((line) => JSON.parse(line)),
    }
    const services = await createAppServices({ dataDir: dir, transport: 'browser', sandbox: false })
    const call = async <T>(name: string, input: unknown) =>
      ((await services.router.dispatch(name, input, { transport: 'test' })) as Ok<T>).value
    try {
      const listed = await call<{
        profiles: Array<{ id: string; name: string; baseUrl: string; token: { set: boolean; storage: string; last4?: string } }>
        activeId: string
      }>('profiles.list', {})
      expect(listed.profiles.map(({ id, name, baseUrl }) => ({ id, name, baseUrl }))).toEqual(
        before.profiles.map(({ id, name, baseUrl }) => ({ id, name, baseUrl })),
      )
      expect(listed.activeId).toBe((await json(dir, 'profiles.json.migrated')).activeId)
      const byName = Object.fromEntries(listed.profiles.map((profile) => [profile.name, profile]))
      expect(byName.Production!.token).toMatchObject({ set: true, storage: 'keychain' })
      expect(byName.Staging!.token).toMatchObject({ set: true, storage: 'file' })
      // Session tokens were never written by 0.1.0, so there is nothing to import.
      expect(byName['Scratch — session only']!.token).toEqual({ set: false, storage: 'none' })

      // Every secret of both vault files is a row now, as it was stored.
      const rows = services.db.all<{ key: string; storage: string; secret: string | null }>(
        'SELECT key, storage, secret FROM secrets ORDER BY key',
      )
      expect(rows.map((row) => row.key).sort()).toEqual([...Object.keys(before.keychain), ...Object.keys(before.plaintext)].sort())
      for (const [key, entry] of Object.entries(before.plaintext)) expect(rows.find((row) => row.key === key)?.secret).toBe(entry.secret)

      // The catalog, group by group, with mappings and nested properties.
      for (const group of before.catalog) {
        const { entry } = await call<{ entry: unknown }>('catalog.get', { profileId: group.profileId, groupId: group.groupId })
        expect(entry).toEqual(group)
      }
      // The activity log, entry by entry, newest first.
      const page = await call<{ entries: unknown[]; total: number }>('activity.list', { limit: 1000 })
      expect(page.total).toBe(before.activity.length)
      expect(page.entries).toEqual([...before.activity].reverse())

      const files = await readdir(dir)
      for (const name of LEGACY_FILES.filter((file) => file !== 'sandbox.json')) {
        expect(files).toContain(`${name}.migrated`)
        expect(files).not.toContain(name)
      }
    } finally {
      await services.close()
    }
  })

  it('decrypts the imported keychain tokens with the same keychain, and encrypts the plaintext ones', async () => {
    const dir = await legacyFolder()
    const plaintext = (await json(dir, 'vault.plain.json')).entries as Record<string, { secret: string }>
    const services = await createAppServices({ dataDir: dir, transport: 'electron', sandbox: false, safeStorage: fakeSafeStorage() })
    try {
      const production = services.profiles.list().find((profile) => profile.name === 'Production')!
      const connection = await services.profiles.resolveConnection(production.id)
      const sandboxFile = await json(dir, 'sandbox.json')
      expect(connection.apiToken).toBe(sandboxFile.apiTokens.Customer)
      // With a keychain at hand nothing stays in clear: the plaintext rows were encrypted.
      const rows = services.db.all<{ storage: string; secret: string | null }>('SELECT storage, secret FROM secrets')
      expect(rows.every((row) => row.storage === 'keychain' && row.secret === null)).toBe(true)
      const dbBytes = await readFile(join(dir, 'embed-console.db'))
      for (const { secret } of Object.values(plaintext)) expect(dbBytes.includes(Buffer.from(secret))).toBe(false)
      const staging = services.profiles.list().find((profile) => profile.name === 'Staging')!
      expect((await services.profiles.resolveConnection(staging.id)).apiToken).toBe(sandboxFile.apiTokens.Testing)
    } finally {
      await services.close()
    }
  })

  it('imports the sandbox: its API tokens, groups, tokens and team ids carry on', async () => {
    const dir = await legacyFolder()
    const old = await json(dir, 'sandbox.json')
    const sandbox = await startSandbox({ port: 0, dataFile: join(dir, 'sandbox.db'), legacyDataFile: join(dir, 'sandbox.json') })
    try {
      expect(sandbox.tokens).toEqual(old.apiTokens)
      const client = createUserApiClient({ baseUrl: sandbox.baseUrl, apiToken: old.apiTokens.Customer })
      for (const group of old.groups.filter((candidate: { api_environment_tag: string }) => candidate.api_environment_tag === 'Customer')) {
        const answer = await client.getOrCreate({ user_group_id: group.provided_id })
        expect(answer.value).toMatchObject({
          new_user_group: false,
          user_group: { team_id: group.team_id, token: group.token, name: group.name, properties: group.properties },
        })
      }
      const fresh = await client.getOrCreate({ user_group_id: 'after-import' })
      expect(fresh.value.user_group.team_id).toBe(old.nextTeamId)
      expect(await readdir(dir)).toContain('sandbox.json.migrated')
    } finally {
      await sandbox.close()
    }
  })

  it('a second start imports nothing twice; a torn line loses only itself', async () => {
    const dir = await legacyFolder()
    const lines = (await readFile(join(dir, 'activity.jsonl'), 'utf8')).trim().split('\n')
    // 0.1.0 crashed mid-append, then appended the next entry on the same line.
    const torn = lines[0]!.slice(0, 40)
    const next = JSON.stringify({ ...JSON.parse(lines[0]!), id: 'after-the-tear' })
    await appendFile(join(dir, 'activity.jsonl'), `${torn}${next}\n`)
    const first = await createAppServices({ dataDir: dir, transport: 'browser', sandbox: false })
    const info = (await first.router.dispatch('app.info', {}, { transport: 'test' })) as Ok<{ notices: string[] }>
    expect(info.value.notices).toContain(
      '1 line in activity.jsonl could not be read and was left out; the file is kept as activity.jsonl.migrated.',
    )
    const count = () => first.db.get<{ n: number }>('SELECT count(*) AS n FROM activity')!.n
    expect(count()).toBe(lines.length + 1)
    expect(first.db.get('SELECT id FROM activity WHERE id = ?', 'after-the-tear')).toBeDefined()
    await first.close()
    // Put the backups back, as if the renames had been cut short, and start again.
    await cp(FIXTURE, dir, { recursive: true })
    const second = await createAppServices({ dataDir: dir, transport: 'browser', sandbox: false })
    try {
      expect(second.db.get<{ n: number }>('SELECT count(*) AS n FROM activity')!.n).toBe(lines.length + 1)
      expect(second.profiles.list()).toHaveLength(4)
    } finally {
      await second.close()
    }
  })
})
