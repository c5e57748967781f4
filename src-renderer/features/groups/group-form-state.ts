import { create } from 'zustand'
import type { CatalogEntry } from '../../../src-shared/catalog/schemas'
import type { GetOrCreateRequest } from '../../../src-shared/user-api/schemas'
import type { GroupOutcome } from './ResultPanel'

export type GroupOperation = 'getOrCreate' | 'update' | 'rotateToken'

export interface GroupFields {
  userGroupId: string
  name: string
  mappingText: string
  propertiesText: string
}

export const EMPTY_FIELDS: GroupFields = { userGroupId: '', name: '', mappingText: '', propertiesText: '' }

const pretty = (value: unknown) => (value === undefined || value === null ? '' : JSON.stringify(value, null, 2))

export function fieldsFromCatalog(entry: CatalogEntry): GroupFields {
  return { userGroupId: entry.groupId, name: entry.name ?? '', mappingText: pretty(entry.mapping), propertiesText: pretty(entry.properties) }
}

/** A request as it was sent (from the activity log), back in the form's fields. */
export function fieldsFromRequest(request: GetOrCreateRequest): GroupFields {
  return { userGroupId: request.user_group_id, name: request.name ?? '', mappingText: pretty(request.mapping), propertiesText: pretty(request.properties) }
}

interface GroupFormState {
  operation: GroupOperation
  fields: GroupFields
  /** The group picked for rotation from the catalog. */
  rotateGroupId: string
  setOperation(operation: GroupOperation): void
  setField<K extends keyof GroupFields>(key: K, value: GroupFields[K]): void
  /** Opens a catalog group: update form prefilled, rotation pointed at it. */
  openGroup(entry: CatalogEntry, operation: GroupOperation): void
  /** The last call's result, numbered so a new one is told from the one shown before. */
  result: { id: number; outcome: GroupOutcome } | null
  showResult(outcome: GroupOutcome): void
}

// Kept outside the screen so switching sections loses neither what the operator typed nor the last result.
export const useGroupForm = create<GroupFormState>((set) => ({
  operation: 'getOrCreate',
  fields: EMPTY_FIELDS,
  rotateGroupId: '',
  setOperation: (operation) => set({ operation }),
  setField: (key, value) => set((state) => ({ fields: { ...state.fields, [key]: value } })),
  openGroup: (entry, operation) => set({ fields: fieldsFromCatalog(entry), rotateGroupId: entry.groupId, operation }),
  result: null,
  showResult: (outcome) => set((state) => ({ result: { id: (state.result?.id ?? 0) + 1, outcome } })),
}))
