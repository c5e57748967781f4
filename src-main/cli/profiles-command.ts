import { parseArgs } from 'node:util'
import type { Result } from '../../src-shared/ipc/result'
import type { ProfileView } from '../../src-shared/profiles/schemas'
import type { AppServices } from '../app-services'
import { withCliServices } from './cli-services'
import { type CliIo, type Command, folderOptions, printJson, profileNamed, UsageError } from './usage'

/*
 * `embed-console profiles …`: what a command-line-only operator needs of the saved profiles:
 * which there are (the team's shared ones among them) and entering one's own API token in one,
 * from standard input or a prompt that does not echo, never a flag's value (flags show up in
 * process lists and shell history). Through the router, as the app's screens go: the same checks.
 */

const CONTEXT = { transport: 'browser' } as const

const STORAGE_WORDS: Record<ProfileView['token']['storage'], string> = {
  keychain: 'kept, encrypted with the system keychain',
  file: 'kept unencrypted in the owner-only database',
  session: 'for this session only',
  none: 'no token',
}

/** The folder's services; a joined folder gets the team's shared profiles first (a profile shared since the join). */
const withServices = <T>(dataDir: string | undefined, io: CliIo, work: (services: AppServices) => Promise<T>) =>
  withCliServices(dataDir, io, work, { pull: true })

/** The saved profiles through the router (the same view the Profiles screen reads), and whether the keychain is there. */
async function listed(services: AppServices, io: CliIo, json: boolean) {
  return unwrap(
    (await services.router.dispatch('profiles.list', {}, CONTEXT)) as Result<{
      profiles: ProfileView[]
      vault: { encryptionAvailable: boolean }
    }>,
    io,
    json,
  )
}

/** A call's value, or its error as the command's answer (exit 1; 2 for a refused input). */
function unwrap<T>(result: Result<T>, io: CliIo, json: boolean): { value: T } | { exit: number } {
  if (result.ok) return { value: result.value }
  if (json) printJson(io, result)
  else io.stderr(result.error.message)
  return { exit: result.error.code === 'invalid_input' ? 2 : 1 }
}

const list: Command = {
  name: 'profiles list',
  usage: [
    'embed-console profiles list [--data-dir DIR] [--json]',
    '',
    'The saved profiles: name, base URL, environment, and whether this machine keeps an API token for',
    'each (a profile the team shares arrives without one). --json: {"ok": true, "value": {"profiles": […]}}.',
  ].join('\n'),
  examples: ['embed-console profiles list', 'embed-console profiles list --json'],
  exitCodes: [
    [0, 'listed'],
    [2, 'bad usage'],
  ],
  async run(argv, io) {
    const values = folderOptions(argv)
    return withServices(values['data-dir'], io, async (services) => {
      const saved = await listed(services, io, values.json)
      if ('exit' in saved) return saved.exit
      const profiles = saved.value.profiles.filter((profile) => !profile.builtin)
      if (values.json) printJson(io, { ok: true, value: { profiles } })
      else if (profiles.length === 0) io.stdout('No profile is saved in this data folder.')
      else
        for (const profile of profiles)
          io.stdout(
            [
              profile.name,
              profile.baseUrl,
              profile.environmentKind,
              STORAGE_WORDS[profile.token.storage],
              profile.id.startsWith('team-') ? 'shared by the team' : '',
            ]
              .join('\t')
              .trimEnd(),
          )
      return 0
    })
  },
}

/** The token, from standard input (piped) or a prompt that does not echo (a terminal). */
async function readToken(io: CliIo, profileName: string): Promise<string> {
  const text = io.prompt ? await io.prompt(`API token for “${profileName}” (not shown): `) : await io.stdin()
  const token = text.replace(/\r?\n$/, '').trim()
  if (!token) throw new UsageError(io.prompt ? 'No token was entered.' : 'Standard input held no token.')
  return token
}

const setToken: Command = {
  name: 'profiles set-token',
  usage: [
    'embed-console profiles set-token NAME [--data-dir DIR] [--json]',
    '',
    'Enters your API token in the profile NAME (a team’s shared profile arrives without one). The token',
    'is read from standard input, or asked for without echo on a terminal: never a flag’s value (flags',
    'show up in process lists and shell history). It is kept as the app keeps tokens: encrypted with the',
    'system keychain where there is one, otherwise in the owner-only database.',
  ].join('\n'),
  examples: ['embed-console profiles set-token "Shared prod"', 'printf %s "$API_TOKEN" | embed-console profiles set-token "Shared prod"'],
  exitCodes: [
    [0, 'the token is kept'],
    [1, 'the profile refused it (the sentence says why)'],
    [2, 'bad usage: no such profile, no token, or a token given as a flag'],
  ],
  async run(argv, io) {
    const { values, positionals } = parseArgs({
      args: argv,
      options: { token: { type: 'string' }, 'data-dir': { type: 'string' }, json: { type: 'boolean', default: false } },
      allowPositionals: true,
      strict: true,
    })
    if (values.token !== undefined && values.token !== '-')
      throw new UsageError(
        'profiles set-token never takes the token as a flag’s value (flags show up in process lists and shell history): pipe it to standard input, or run it on a terminal to be asked.',
      )
    if (positionals.length !== 1) throw new UsageError('Name one profile: embed-console profiles set-token NAME')
    return withServices(values['data-dir'], io, async (services) => {
      const profile = profileNamed(services.profiles, positionals[0]!)
      const saved = await listed(services, io, values.json)
      if ('exit' in saved) return saved.exit
      const apiToken = await readToken(io, profile.name)
      const tokenStorage = saved.value.vault.encryptionAvailable ? 'keychain' : 'file'
      const updated = unwrap(
        (await services.router.dispatch(
          'profiles.update',
          { id: profile.id, changes: { apiToken, tokenStorage } },
          CONTEXT,
        )) as Result<ProfileView>,
        io,
        values.json,
      )
      if ('exit' in updated) return updated.exit
      const kept = { name: updated.value.name, storage: updated.value.token.storage, last4: updated.value.token.last4 ?? null }
      if (values.json) printJson(io, { ok: true, value: kept })
      else io.stdout(`The API token of “${kept.name}” (…${kept.last4 ?? ''}) is ${STORAGE_WORDS[kept.storage]}.`)
      return 0
    })
  },
}

const SUBCOMMANDS: Record<string, { summary: string; command: Command }> = {
  list: { summary: 'The saved profiles, and whether each has your API token.', command: list },
  'set-token': { summary: 'Enter your API token in a profile (from standard input or a prompt).', command: setToken },
}

export const profilesCommand: Command = {
  name: 'profiles',
  usage: [
    'embed-console profiles <list|set-token> [options]',
    '',
    ...Object.entries(SUBCOMMANDS).map(([name, sub]) => `  ${name.padEnd(10)} ${sub.summary}`),
    '',
    '`embed-console profiles <subcommand> --help` for each one’s options.',
  ].join('\n'),
  examples: ['embed-console profiles list', 'embed-console profiles set-token "Shared prod"'],
  exitCodes: [
    [0, 'done'],
    [1, 'refused (the sentence says why)'],
    [2, 'bad usage'],
  ],
  subcommand: ([name]) => (name && Object.hasOwn(SUBCOMMANDS, name) ? SUBCOMMANDS[name] : undefined),
  async run(argv, io) {
    const [name, ...rest] = argv
    if (!name || !Object.hasOwn(SUBCOMMANDS, name)) throw new UsageError(`Name what to do: ${Object.keys(SUBCOMMANDS).join(', ')}.`)
    return SUBCOMMANDS[name]!.command.run(rest, io)
  },
}
