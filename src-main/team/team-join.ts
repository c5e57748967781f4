import { AppErrorException } from '../../src-shared/ipc/result'
import type { TeamAddress } from './team-url'

/**
 * Asks the team database, before anything is kept here, whether this role may join: it logs in,
 * it is an Embed Console operator, and the schema is not older than this version writes. Throws
 * the sentence that says what to do otherwise. Loads the Postgres driver: only a join calls it.
 */
export async function checkRoleMayJoin(address: TeamAddress, password: string | undefined): Promise<void> {
  const [{ TeamLink }, { schemaProblem }] = await Promise.all([import('./team-link'), import('./team-schema')])
  const probe = new TeamLink(address, password)
  try {
    const who = await probe.whoami()
    const notOperator = new AppErrorException(
      'refused',
      `“${who.user}” is not an Embed Console operator in this database: ask an admin to run \`embed-console team add-operator ${who.user}\`.`,
    )
    // A role that is no operator may not even read the schema's version.
    const fit = await probe.schema(true).catch((error: unknown) => {
      throw who.operator ? error : notOperator
    })
    if (fit.state === 'older') throw new AppErrorException('refused', schemaProblem(fit)!)
    if (!who.operator) throw notOperator
  } finally {
    await probe.close()
  }
}
