import { create } from 'zustand'
import type { ProfileView } from '../../../src-shared/profiles/schemas'

interface CustomerWrites {
  /** Customer (production) profiles whose writes the operator confirmed in this session. */
  confirmed: ReadonlySet<string>
  confirm(profileId: string): void
}

/** In memory only: a new session (a reload, a new launch) asks again. */
export const useCustomerWrites = create<CustomerWrites>((set) => ({
  confirmed: new Set(),
  confirm: (profileId) => set((state) => ({ confirmed: new Set([...state.confirmed, profileId]) })),
}))

/** A write through this profile must be confirmed first: it is a Customer one, not yet confirmed this session. */
export const needsWriteConfirmation = (profile: ProfileView, confirmed: ReadonlySet<string>) =>
  profile.environmentKind === 'customer' && !confirmed.has(profile.id)
