import { type ReactNode, useEffect, useRef } from 'react'
import { closeDialog } from '../state/dialog-store'

interface ModalProps {
  title: string
  children: ReactNode
  actions?: ReactNode
  /** Escape; closes the dialog unless said otherwise. */
  onCancel?: () => void
  wide?: boolean
}

/** The editor's modal dialog: a native <dialog>, so focus is trapped and Escape cancels. */
export function Modal({ title, children, actions, onCancel = closeDialog, wide }: ModalProps) {
  const dialog = useRef<HTMLDialogElement>(null)
  useEffect(() => {
    const element = dialog.current
    element?.showModal()
    return () => element?.close()
  }, [])
  return (
    <dialog
      ref={dialog}
      className={`dialog${wide ? ' dialog--wide' : ''}`}
      aria-labelledby="site-dialog-title"
      onCancel={(event) => {
        event.preventDefault()
        onCancel()
      }}
    >
      <h2 id="site-dialog-title" className="dialog__title">
        {title}
      </h2>
      <div className="dialog__body">{children}</div>
      {actions ? <div className="row dialog__actions">{actions}</div> : null}
    </dialog>
  )
}
