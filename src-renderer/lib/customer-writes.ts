import { create } from 'zustand'
import { writesToProduction } from '../../src-shared/profiles/environment'
import type { ProfileView } from '../../src-shared/profiles/schemas'

interface CustomerWrites {
  /** Production profiles whose writes the operator confirmed in this session. */
  confirmed: ReadonlySet<string>
  confirm(profileId: string): void
}

/** In memory only: a new session (a reload, a new launch) asks again. */
export const useCustomerWrites = create<CustomerWrites>((set) => ({
  confirmed: new Set(),
  confirm: (profileId) => set((state) => ({ confirmed: new Set([...state.confirmed, profileId]) })),
}))

/**
 * A write through this profile must be confirmed first: it writes to production (a Customer
 * profile, or one marked Testing whose server put its groups in Customer), not yet confirmed
 * this session.
 */
export const needsWriteConfirmation = (profile: ProfileView, confirmed: ReadonlySet<string>) =>
  writesToProduction(profile) && !confirmed.has(profile.id)

/** What a production write goes through, in words, for the question that asks first. */
export function productionWriteNotice(profile: ProfileView): string {
  const what =
    profile.environmentKind === 'customer'
      ? `“${profile.name}”, a Customer (production) profile`
      : `“${profile.name}”, marked Testing but whose server put its groups in Customer (production)`
  return `${what}: this changes live groups at ${profile.baseUrl}. Once you confirm, writes through it are not asked about again this session.`
}
