import type { AppServices } from '../app-services'
import { defaultDataDir } from '../data-dir'
import { type CliIo, pullFirst, reportLeftBehind } from './usage'

/**
 * Runs `work` with the data folder's services (no sandbox), loaded only now, and closes them
 * after (which publishes the team outbox), saying on stderr what stays queued for the team.
 * `pull`: a joined folder pulls the team's changes first (a profile shared since, a rotation).
 */
export async function withCliServices<T>(
  dataDir: string | undefined,
  io: CliIo,
  work: (services: AppServices) => Promise<T>,
  options: { pull?: boolean } = {},
): Promise<T> {
  const { createAppServices } = await import('../app-services')
  const services = await createAppServices({
    dataDir: dataDir ?? defaultDataDir(io.env),
    transport: 'browser',
    client: 'cli',
    sandbox: false,
  })
  try {
    if (options.pull) await pullFirst(services.team, io)
    return await work(services)
  } finally {
    await services.close()
    reportLeftBehind(services.team, io)
  }
}
