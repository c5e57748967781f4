import type { BulkKind } from '../../../src-shared/bulk/schemas'
import type { ProfileView } from '../../../src-shared/profiles/schemas'
import { countFormat } from '../../lib/count-format'
import { ConfirmDialog } from '../../ui/ConfirmDialog'

interface ProductionRunDialogProps {
  open: boolean
  profile: Pick<ProfileView, 'name' | 'environmentKind'>
  kind: BulkKind
  toSend: number
  onCancel(): void
  onConfirm(): void
}

/** The question a run through a production profile asks before every start, naming the profile. */
export function ProductionRunDialog({ open, profile, kind, toSend, onCancel, onConfirm }: ProductionRunDialogProps) {
  return (
    <ConfirmDialog
      open={open}
      title={`Send ${countFormat.format(toSend)} rows to production?`}
      confirmLabel="Send to production"
      onCancel={onCancel}
      onConfirm={onConfirm}
    >
      <p>
        “{profile.name}”{' '}
        {profile.environmentKind === 'customer'
          ? 'is a Customer (production) profile'
          : 'is marked Testing, but its server put its groups in Customer (production)'}
        :{' '}
        {kind === 'rotate'
          ? 'each rotated token stops working at once for the dashboards embedded with it.'
          : 'the groups change for the customers who use them.'}
      </p>
    </ConfirmDialog>
  )
}
