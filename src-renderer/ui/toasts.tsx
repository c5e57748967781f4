import { create } from 'zustand'

export type ToastTone = 'success' | 'error' | 'info'

interface Toast {
  id: number
  tone: ToastTone
  message: string
}

interface ToastState {
  toasts: Toast[]
  show(tone: ToastTone, message: string): void
  dismiss(id: number): void
}

let nextId = 1
const TOAST_MS = 6000

export const useToasts = create<ToastState>((set, get) => ({
  toasts: [],
  show(tone, message) {
    const id = nextId++
    set({ toasts: [...get().toasts.slice(-3), { id, tone, message }] })
    setTimeout(() => get().dismiss(id), TOAST_MS)
  },
  dismiss(id) {
    set({ toasts: get().toasts.filter((toast) => toast.id !== id) })
  },
}))

export const toast = {
  success: (message: string) => useToasts.getState().show('success', message),
  error: (message: string) => useToasts.getState().show('error', message),
  info: (message: string) => useToasts.getState().show('info', message),
}

/** Outcomes announced politely to screen readers; errors stay until read or dismissed by time. */
export function ToastRegion() {
  const { toasts, dismiss } = useToasts()
  return (
    <div className="toasts" role="status" aria-live="polite" aria-label="Notifications">
      {toasts.map((item) => (
        <div key={item.id} className={`toast toast--${item.tone}`}>
          <span className="toast__message">{item.message}</span>
          <button type="button" className="toast__close" aria-label="Dismiss notification" onClick={() => dismiss(item.id)}>
            ×
          </button>
        </div>
      ))}
    </div>
  )
}
