import { QueryClient, QueryClientProvider } from '@tanstack/react-query'
import { StrictMode } from 'react'
import { createRoot } from 'react-dom/client'
import { z } from 'zod'
import { App } from './app/App'
import './app/styles.css'
import { installBridge } from './lib/api'
import { connectBridge } from './lib/bridge'

// zod probes `new Function` for a faster path; the strict CSP forbids it, and without the probe
// validation measured just as fast.
z.config({ jitless: true })

const queryClient = new QueryClient({
  defaultOptions: {
    // Calls go to our own main process: a failure is a real answer, not a flaky network to retry.
    queries: { retry: false, refetchOnWindowFocus: false },
    mutations: { retry: false },
  },
})

const root = createRoot(document.getElementById('root')!)
const state = connectBridge()

if (state.kind === 'no-key') {
  root.render(
    <main className="no-key">
      <h1>Embed Console needs its access key</h1>
      <p>
        This page was opened without the key that browser mode prints when it starts. Open the full address from the
        terminal, the one that looks like <code>http://127.0.0.1:PORT/#key=…</code>.
      </p>
    </main>,
  )
} else {
  installBridge(state.bridge, state.downloadHeaders)
  root.render(
    <StrictMode>
      <QueryClientProvider client={queryClient}>
        <App transport={state.transport} />
      </QueryClientProvider>
    </StrictMode>,
  )
}
