import { createAppServices } from '../../src-main/app-services'

/**
 * The app's services without the sandbox, called through the router as a renderer calls them: for
 * scripts run in a process of their own (benchmarks' probes, tests that stop or kill it).
 * `worker`: the docs-folder index's worker script, or "inline" for main's own thread.
 */
export async function appThroughRouter(dataDir: string, worker: string) {
  const services = await createAppServices({
    dataDir,
    transport: 'browser',
    sandbox: false,
    docsIndexWorker: worker === 'inline' ? null : worker,
  })
  /** The call's answer, or a thrown Error with its sentence. */
  const call = async (name: string, input: unknown) => {
    const result = await services.router.dispatch(name, input, { transport: 'test' })
    if (!result.ok) throw new Error(`${name}: ${result.error.message}`)
    return result.value as Record<string, unknown>
  }
  return { services, call }
}
