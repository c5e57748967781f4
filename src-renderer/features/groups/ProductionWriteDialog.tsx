import { productionWriteNotice } from '../../lib/customer-writes'
import { ConfirmDialog } from '../../ui/ConfirmDialog'
import type { GroupOperation } from './group-form-state'
import type { Submission } from './group-submission'

const VERBS: Record<GroupOperation, string> = { getOrCreate: 'get or create', update: 'update', rotateToken: 'rotate a token' }

interface ProductionWriteDialogProps {
  /** The write waiting for the operator's word, or null: the dialog is closed. */
  submission: Submission | null
  onCancel(): void
  onConfirm(): void
}

/** The question a session's first write to a Customer (production) profile asks before it goes. */
export function ProductionWriteDialog({ submission, onCancel, onConfirm }: ProductionWriteDialogProps) {
  return (
    <ConfirmDialog
      open={submission !== null}
      title="Write to a Customer (production) environment?"
      confirmLabel="Continue"
      onCancel={onCancel}
      onConfirm={onConfirm}
    >
      {submission ? (
        <p>
          You are about to {VERBS[submission.operation]} through {productionWriteNotice(submission.profile)}
        </p>
      ) : null}
    </ConfirmDialog>
  )
}
