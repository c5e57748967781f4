// ./app/styles.css is imported after the components, so its rules follow theirs in the cascade.
/* eslint-disable simple-import-sort/imports */
import { QueryClient, QueryClientProvider } from '@tanstack/react-query'
import { StrictMode, type ReactNode } from 'react'
import { createRoot } from 'react-dom/client'
import { z } from 'zod'
import { App } from './app/App'
import { installSectionShortcuts } from './app/navigation-store'
import { sections } from './app/sections'
import './app/styles.css'
import { installBridge } from './lib/api'
import { connectBridge, type NoSessionReason } from './lib/connect-bridge'

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

/** What browser mode says when it cannot open: each case with what to do. */
const NO_SESSION: Record<NoSessionReason, ReactNode> = {
  'no-key': (
    <p>
      This page was opened without the key that browser mode prints when it starts. Open the full address from the terminal, the one that
      looks like <code>http://127.0.0.1:PORT/#key=…</code>.
    </p>
  ),
  'key-used': (
    <p>
      The key in this address has already been used. A key opens Embed Console once, in one browser, so a copy left in the history opens
      nothing. Go back to the tab where Embed Console is open, or run <code>embed-console web --new-link</code> on this machine: it prints
      (and opens) a new address, without restarting anything.
    </p>
  ),
  'key-wrong': (
    <p>
      The key in this address is not the one this Embed Console printed. Open the full address from the terminal where{' '}
      <code>embed-console web</code> runs.
    </p>
  ),
  unreachable: (
    <p>
      Embed Console is not answering. Is the <code>embed-console web</code> process still running? Start it again and open the address it
      prints.
    </p>
  ),
}

// The app draws at once; its calls wait for browser mode's session, which a refusal replaces
// with the page that says why.
const { bridge, transport, session } = connectBridge()
installBridge(bridge)
installSectionShortcuts(window, sections)
root.render(
  <StrictMode>
    <QueryClientProvider client={queryClient}>
      <App transport={transport} />
    </QueryClientProvider>
  </StrictMode>,
)
void session.then((reason) => {
  if (reason === null) return
  root.render(
    <main className="no-key">
      <h1>Embed Console needs its access key</h1>
      {NO_SESSION[reason]}
    </main>,
  )
})
