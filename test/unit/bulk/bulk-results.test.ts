import { mkdtemp, readFile, stat, symlink, writeFile } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterEach, describe, expect, it } from 'vitest'
import { type AppServices, createAppServices } from '../../../src-main/app-services'
import { type Sandbox, startSandbox } from '../../../src-main/sandbox/sandbox-server'
import type { FileDialogs } from '../../../src-main/user-files/file-dialogs'

const context = { transport: 'test' } as const
const settings = { concurrency: 2, ratePerMinute: null, sendCreate: true, sendUpdate: true, bail: false }

let opened: Array<{ close(): Promise<void> }> = []
afterEach(async () => {
  for (const item of opened.reverse()) await item.close()
  opened = []
})

/** A finished three-row run, and the folder to save its results in. */
async function finishedRun(
  dialogs?: FileDialogs,
): Promise<{ services: AppServices; runId: string; dir: string; dataDir: string; tokens: string[] }> {
  const dir = await mkdtemp(join(tmpdir(), 'ec-bulk-results-'))
  const sandbox: Sandbox = await startSandbox({ dataFile: join(dir, 'sandbox.db') })
  const dataDir = join(dir, 'data')
  const services = await createAppServices({ dataDir, transport: 'browser', sandbox: false, ...(dialogs ? { fileDialogs: dialogs } : {}) })
  opened.push(sandbox, services)
  const profile = await services.profiles.create({
    name: 'R',
    baseUrl: sandbox.baseUrl,
    timeoutSeconds: 5,
    environmentLabel: '',
    apiToken: sandbox.tokens.Customer,
    tokenStorage: 'session',
  })
  const plan = services.bulk.plan({
    kind: 'apply',
    target: { profileId: profile.id },
    fileName: 'r.csv',
    text: 'user_group_id\nr-1\nr-2\nr-3',
    excludeInvalid: false,
    settings,
  })
  await services.bulk.launch(plan.runId!, settings).done
  const tokens = []
  for (const id of ['r-1', 'r-2', 'r-3']) tokens.push(await services.groups.revealToken(profile.id, id))
  return { services, runId: plan.runId!, dir, dataDir, tokens }
}

describe('a bulk run’s results', () => {
  it('download without tokens, streamed, one row a line', async () => {
    const { services, runId, tokens } = await finishedRun()
    const download = services.router.download('bulk-results', { runId, format: 'csv' })
    if (!download.ok) throw new Error(download.error.message)
    let text = ''
    for await (const chunk of download.value.chunks) text += chunk
    expect(text.trim().split('\n')).toEqual([
      'line,user_group_id,action,outcome,http_status,message,token_last4',
      `2,r-1,create,created,200,,${tokens[0]!.slice(-4)}`,
      `3,r-2,create,created,200,,${tokens[1]!.slice(-4)}`,
      `4,r-3,create,created,200,,${tokens[2]!.slice(-4)}`,
    ])
    for (const token of tokens) expect(text).not.toContain(token)
  })

  it('saved with tokens only when asked, owner-only, asking before replacing a file; never in the data folder', async () => {
    const { services, runId, dir, dataDir, tokens } = await finishedRun()
    const path = join(dir, 'results.json')
    const save = (target: unknown, includeTokens = true) =>
      services.router.dispatch('bulk.saveResults', { runId, format: 'json', includeTokens, target }, context)
    expect(await save({ kind: 'path', path })).toEqual({ ok: true, value: { path, rows: 3 } })
    expect((await stat(path)).mode & 0o777).toBe(0o600)
    const saved = JSON.parse(await readFile(path, 'utf8')) as Array<{ user_group_id: string; token: string }>
    expect(saved.map((row) => row.token)).toEqual(tokens)

    const asked = await save({ kind: 'path', path }, false)
    expect(asked).toMatchObject({
      ok: false,
      error: {
        code: 'conflict',
        message: 'A file named results.json already exists there. Replace it?',
        details: { path, replaceToken: expect.any(String) },
      },
    })
    const replaceToken = (asked as { error: { details: { replaceToken: string } } }).error.details.replaceToken
    expect(await save({ kind: 'path', path, replaceToken }, false)).toMatchObject({ ok: true })
    expect(await readFile(path, 'utf8')).not.toContain(tokens[0]!)
    // A token is good once, and the renderer's word alone (an old "overwrite") replaces nothing.
    expect(await save({ kind: 'path', path, replaceToken }, false)).toMatchObject({ ok: false, error: { code: 'conflict' } })
    expect(await save({ kind: 'path', path, overwrite: true }, false)).toMatchObject({ ok: false, error: { code: 'invalid_input' } })

    expect(await save({ kind: 'path', path: join(dataDir, 'results.json') })).toMatchObject({ ok: false, error: { code: 'refused' } })
    expect(await save({ kind: 'dialog' })).toMatchObject({
      ok: false,
      error: { code: 'refused', message: 'There is no file dialog here: type the path to save to.' },
    })
  })

  it('replaces only the file the question was about: not one changed since, not another, never through a link', async () => {
    const { services, runId, dir } = await finishedRun()
    // Browser mode: no dialogs, so the screens offer a path field.
    expect(await services.router.dispatch('app.info', {}, context)).toMatchObject({ ok: true, value: { fileDialogs: false } })
    const save = (target: unknown) =>
      services.router.dispatch('bulk.saveResults', { runId, format: 'csv', includeTokens: false, target }, context)
    const question = async (path: string) =>
      ((await save({ kind: 'path', path })) as { error: { details: { replaceToken: string } } }).error.details.replaceToken
    const victim = join(dir, 'victim.txt')
    await writeFile(victim, 'precious')
    const first = await question(victim)
    // The file changed after the question (same name, other size and time): the answer does not hold.
    await writeFile(victim, 'precious, edited since')
    expect(await save({ kind: 'path', path: victim, replaceToken: first })).toMatchObject({
      ok: false,
      error: { code: 'conflict', message: expect.stringMatching(/^victim\.txt is not the file you agreed to replace/) },
    })
    expect(await readFile(victim, 'utf8')).toBe('precious, edited since')
    // A token asked for one file does not replace another.
    const other = join(dir, 'other.txt')
    await writeFile(other, 'other')
    expect(await save({ kind: 'path', path: other, replaceToken: await question(victim) })).toMatchObject({
      ok: false,
      error: { code: 'conflict' },
    })
    expect(await readFile(other, 'utf8')).toBe('other')
    // A link is refused outright, whatever it points at.
    const link = join(dir, 'link.csv')
    await symlink(victim, link)
    expect(await save({ kind: 'path', path: link })).toMatchObject({
      ok: false,
      error: { code: 'refused', message: 'link.csv is a link: name the file itself, not a link to it.' },
    })
    expect(await readFile(victim, 'utf8')).toBe('precious, edited since')
  })

  it('in the desktop app, the file is chosen with the system’s dialog; a typed path is refused', async () => {
    let answer: string | null = null
    const asked: string[] = []
    const dialogs: FileDialogs = {
      chooseFileToOpen: async () => null,
      chooseDocsFolder: async () => null,
      chooseFileToSave: async (purpose) => {
        asked.push(purpose)
        return answer
      },
    }
    const { services, runId, dir } = await finishedRun(dialogs)
    // What every screen asks before it offers Choose… or a path field.
    expect(await services.router.dispatch('app.info', {}, context)).toMatchObject({ ok: true, value: { fileDialogs: true } })
    const save = (target: unknown) =>
      services.router.dispatch('bulk.saveResults', { runId, format: 'csv', includeTokens: false, target }, context)
    expect(await save({ kind: 'dialog' })).toEqual({ ok: true, value: null })
    answer = join(dir, 'chosen.csv')
    expect(await save({ kind: 'dialog' })).toEqual({ ok: true, value: { path: answer, rows: 3 } })
    expect(asked).toEqual(['results', 'results'])
    expect(await save({ kind: 'path', path: join(dir, 'typed.csv') })).toMatchObject({ ok: false, error: { code: 'refused' } })
  })
})
