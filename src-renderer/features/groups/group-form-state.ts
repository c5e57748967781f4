import { create } from 'zustand'
import type { CatalogEntry } from '../../../src-shared/catalog/schemas'
import type { GroupCallResult } from '../../../src-shared/ipc/group-calls'
import type { SampleCall } from '../../../src-shared/user-api/code-samples'
import type { GetOrCreateRequest } from '../../../src-shared/user-api/schemas'

export type GroupOperation = 'getOrCreate' | 'update' | 'rotateToken'

/** What the last call did, as the result panel shows it. */
export type GroupOutcome =
  | { kind: 'success'; operation: GroupOperation; result: GroupCallResult; call: SampleCall }
  | { kind: 'error'; operation: GroupOperation; code: string; message: string; details: unknown; call: SampleCall }

export interface GroupFields {
  userGroupId: string
  name: string
  mappingText: string
  propertiesText: string
}

export const EMPTY_FIELDS: GroupFields = { userGroupId: '', name: '', mappingText: '', propertiesText: '' }

const pretty = (value: unknown) => (value === undefined || value === null ? '' : JSON.stringify(value, null, 2))

export function fieldsFromCatalog(entry: CatalogEntry): GroupFields {
  return {
    userGroupId: entry.groupId,
    name: entry.name ?? '',
    mappingText: pretty(entry.mapping),
    propertiesText: pretty(entry.properties),
  }
}

/** A request as it was sent (from the activity log), as the whole form: a field it did not send is empty. */
export function fieldsFromRequest(request: GetOrCreateRequest): GroupFields {
  return {
    userGroupId: request.user_group_id,
    name: request.name ?? '',
    mappingText: pretty(request.mapping),
    propertiesText: pretty(request.properties),
  }
}

/** The last call's result, with the profile it went through (named as it was then) and where it went. */
export interface ShownResult {
  /** Numbered across profiles, so a new result is told from the one shown before. */
  id: number
  outcome: GroupOutcome
  profileName: string
  baseUrl: string
}

/** What the operator has in hand for one profile: the form, the group chosen, the last result. */
export interface Workspace {
  operation: GroupOperation
  fields: GroupFields
  /** The group picked for rotation from the catalog. */
  rotateGroupId: string
  result: ShownResult | null
}

const EMPTY_WORKSPACE: Workspace = { operation: 'getOrCreate', fields: EMPTY_FIELDS, rotateGroupId: '', result: null }

interface WorkspacesState {
  /** By profile id: switching profiles shows that profile's own, empty until something is done there. */
  workspaces: Readonly<Record<string, Workspace>>
  lastResultId: number
  update(profileId: string, change: Partial<Workspace> | ((workspace: Workspace) => Partial<Workspace>)): void
  showResult(profileId: string, result: Omit<ShownResult, 'id'>): void
}

/**
 * Kept outside the screen so switching sections loses neither what the operator typed nor the
 * last result; kept per profile so nothing typed or shown under one profile is sent through, or
 * shown under, another.
 */
export const useWorkspaces = create<WorkspacesState>((set) => ({
  workspaces: {},
  lastResultId: 0,
  update: (profileId, change) =>
    set((state) => {
      const current = state.workspaces[profileId] ?? EMPTY_WORKSPACE
      const next = { ...current, ...(typeof change === 'function' ? change(current) : change) }
      return { workspaces: { ...state.workspaces, [profileId]: next } }
    }),
  showResult: (profileId, result) =>
    set((state) => {
      const id = state.lastResultId + 1
      const current = state.workspaces[profileId] ?? EMPTY_WORKSPACE
      return { lastResultId: id, workspaces: { ...state.workspaces, [profileId]: { ...current, result: { id, ...result } } } }
    }),
}))

/** One profile's workspace and the ways to change it. */
export function useWorkspace(profileId: string) {
  const workspace = useWorkspaces((state) => state.workspaces[profileId] ?? EMPTY_WORKSPACE)
  const update = useWorkspaces((state) => state.update)
  return {
    ...workspace,
    /**
     * The Rotate token tab opens on the group selected in the catalog (the one the form holds),
     * when there is one: the group the operator is looking at is the one they mean.
     */
    setOperation: (operation: GroupOperation) =>
      update(profileId, (current) => {
        const selected = current.fields.userGroupId.trim()
        return operation === 'rotateToken' && selected ? { operation, rotateGroupId: selected } : { operation }
      }),
    setField: <K extends keyof GroupFields>(key: K, value: GroupFields[K]) =>
      update(profileId, (current) => ({ fields: { ...current.fields, [key]: value } })),
    setFields: (fields: GroupFields) => update(profileId, { fields }),
    /** Opens a catalog group: the update form filled with it, the rotation pointed at it. */
    openGroup: (entry: CatalogEntry, operation: GroupOperation) =>
      update(profileId, { fields: fieldsFromCatalog(entry), rotateGroupId: entry.groupId, operation }),
  }
}
