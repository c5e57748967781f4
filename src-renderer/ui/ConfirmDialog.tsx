import { type ReactNode, useEffect, useId, useRef } from 'react'

interface ConfirmDialogProps {
  open: boolean
  title: string
  children: ReactNode
  confirmLabel: string
  cancelLabel?: string
  /** Danger for what cannot be taken back (a rotation, a run to production, a cancel). */
  tone?: 'danger' | 'primary'
  onConfirm(): void
  /** Cancel, Escape, or the dialog closed any other way. */
  onCancel(): void
}

/**
 * A question before an action: a native modal <dialog> (focus trapped, Escape cancels), with
 * Cancel focused first so Enter never confirms by accident.
 */
export function ConfirmDialog({
  open,
  title,
  children,
  confirmLabel,
  cancelLabel = 'Cancel',
  tone = 'danger',
  onConfirm,
  onCancel,
}: ConfirmDialogProps) {
  const dialog = useRef<HTMLDialogElement>(null)
  const id = useId()
  useEffect(() => {
    const element = dialog.current
    if (!element) return
    if (open && !element.open) element.showModal()
    if (!open && element.open) element.close()
  }, [open])
  return (
    <dialog
      ref={dialog}
      className="dialog"
      aria-labelledby={`${id}-title`}
      aria-describedby={`${id}-body`}
      onCancel={(event) => {
        event.preventDefault()
        onCancel()
      }}
    >
      <h2 id={`${id}-title`} className="dialog__title">
        {title}
      </h2>
      <div id={`${id}-body`}>{children}</div>
      <div className="row dialog__actions">
        <button type="button" className="btn" autoFocus onClick={onCancel}>
          {cancelLabel}
        </button>
        <button type="button" className={`btn btn--${tone}`} onClick={onConfirm}>
          {confirmLabel}
        </button>
      </div>
    </dialog>
  )
}
