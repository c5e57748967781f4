// ./frame.css is imported after the components, so its rules follow theirs in the cascade.
/* eslint-disable simple-import-sort/imports */
import { StrictMode, useSyncExternalStore } from 'react'
import { createRoot } from 'react-dom/client'
import type { ToFrame } from '../frame-protocol'
import { FrameApp, post, type FrameState } from './FrameApp'
import './frame.css'

// The preview frame's script. It runs in a sandboxed iframe with no origin of its own and a
// content security policy that allows no connection: it hears only its parent window, and can
// only answer it. Page content never runs here; it is parsed and drawn (FrameApp).

let state: FrameState = { site: null, mode: 'light', folder: { filesBase: null, pages: [], files: [], webPictures: false }, page: null }
const listeners = new Set<() => void>()

window.addEventListener('message', (event: MessageEvent<ToFrame>) => {
  if (event.source !== window.parent || typeof event.data !== 'object' || event.data === null) return
  const message = event.data
  if (message.kind === 'site') state = { ...state, site: message.site, mode: message.mode }
  else if (message.kind === 'folder') state = { ...state, folder: message.folder }
  else if (message.kind === 'page') state = { ...state, page: message.content }
  else return
  document.documentElement.dataset.mode = state.mode
  for (const listener of listeners) listener()
})

// No link navigates the frame: the page's own links open pages through the editor (FrameApp).
document.addEventListener(
  'click',
  (event) => {
    if ((event.target as Element | null)?.closest?.('a')) event.preventDefault()
  },
  true,
)

function Root() {
  const current = useSyncExternalStore(
    (listener) => {
      listeners.add(listener)
      return () => listeners.delete(listener)
    },
    () => state,
  )
  return <FrameApp state={current} />
}

createRoot(document.getElementById('root')!).render(
  <StrictMode>
    <Root />
  </StrictMode>,
)
post({ kind: 'ready' })
