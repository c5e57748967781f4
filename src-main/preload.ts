// The whole bridge: one function to call main, one to hear its events. Nothing of ipcRenderer
// itself reaches the page; main validates every call against the contract.
import { contextBridge, ipcRenderer } from 'electron'
import type { Bridge } from '../src-shared/ipc/bridge'
import { IPC_CALL_CHANNEL, IPC_EVENT_CHANNEL } from '../src-shared/ipc/channels'
import type { AnyEvent } from '../src-shared/ipc/events'

const bridge: Bridge = {
  invoke: (name, input) => ipcRenderer.invoke(IPC_CALL_CHANNEL, name, input),
  onEvent(listener) {
    const forward = (_event: unknown, payload: AnyEvent) => listener(payload)
    ipcRenderer.on(IPC_EVENT_CHANNEL, forward)
    return () => ipcRenderer.off(IPC_EVENT_CHANNEL, forward)
  },
}

contextBridge.exposeInMainWorld('api', bridge)
