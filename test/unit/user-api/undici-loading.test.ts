import { afterEach, describe, expect, it, vi } from 'vitest'
import { closeDispatchers, dispatcherFor, whenUndiciLoads } from '../../../src-main/user-api/dispatchers'
import type { ProxyRoute } from '../../../src-main/user-api/proxy-route'
import { NO_TLS_TRUST } from '../../../src-main/user-api/trust'

// undici is loaded for a proxied call only; what must happen just before it loads (the CLI's V8
// flag for its WebAssembly parser) runs then, once, and never for a call straight to its server.

const direct: ProxyRoute = { proxy: null, reason: 'straight' }
const proxied: ProxyRoute = { proxy: { url: new URL('http://127.0.0.1:9'), source: 'the test' }, reason: 'through a proxy' }

afterEach(() => closeDispatchers())

describe('whenUndiciLoads', () => {
  it('runs before the first proxied dispatcher is built, once, and not for direct ones', async () => {
    const prepare = vi.fn()
    whenUndiciLoads(prepare)
    await dispatcherFor(direct, NO_TLS_TRUST, true).destroy()
    dispatcherFor(direct, NO_TLS_TRUST, false)
    expect(prepare).not.toHaveBeenCalled()

    await dispatcherFor(proxied, NO_TLS_TRUST, true).destroy()
    expect(prepare).toHaveBeenCalledTimes(1)
    await dispatcherFor(proxied, NO_TLS_TRUST, true).destroy()
    dispatcherFor(proxied, NO_TLS_TRUST, false)
    expect(prepare).toHaveBeenCalledTimes(1)

    // undici is loaded by now: a later preparation has nothing to wait for, so it runs at once.
    const late = vi.fn()
    whenUndiciLoads(late)
    expect(late).toHaveBeenCalledTimes(1)
  })
})
