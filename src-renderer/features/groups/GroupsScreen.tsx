import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query'
import { useState } from 'react'
import type { CatalogRow } from '../../../src-shared/catalog/schemas'
import type { GroupCallResult, RotationSource } from '../../../src-shared/ipc/group-calls'
import { buildCurlCommand } from '../../../src-shared/user-api/code-samples'
import type { GetOrCreateRequest } from '../../../src-shared/user-api/schemas'
import { call, CallError } from '../../lib/api'
import { useActiveProfile } from '../../lib/profiles'
import { EmptyState } from '../../ui/EmptyState'
import { TabList } from '../../ui/TabList'
import { toast } from '../../ui/toasts'
import { CatalogPanel } from './CatalogPanel'
import { fieldsFromCatalog, useGroupForm, type GroupOperation } from './group-form-state'
import { GroupForm } from './GroupForm'
import { ResultPanel, type GroupOutcome } from './ResultPanel'
import { RotateForm } from './RotateForm'

const TABS: { id: GroupOperation; label: string }[] = [
  { id: 'getOrCreate', label: 'Get or create' },
  { id: 'update', label: 'Update' },
  { id: 'rotateToken', label: 'Rotate token' },
]

type Submission =
  | { operation: 'getOrCreate' | 'update'; request: GetOrCreateRequest }
  | { operation: 'rotateToken'; source: RotationSource }

export default function GroupsScreen() {
  const { active, isLoading, error } = useActiveProfile()
  const queryClient = useQueryClient()
  const { operation, setOperation, fields, openGroup, rotateGroupId } = useGroupForm()
  const [outcome, setOutcome] = useState<GroupOutcome | null>(null)
  const profileId = active?.id

  const typedGroup = useQuery({
    queryKey: ['catalog', profileId, 'entry', fields.userGroupId],
    queryFn: () => call('catalog.get', { profileId, groupId: fields.userGroupId }),
    enabled: Boolean(profileId && fields.userGroupId.trim()),
  })

  const curlFor = (submission: Submission): string | null => {
    if (!active) return null
    if (submission.operation === 'rotateToken') return buildCurlCommand('rotateToken', active.baseUrl, { current_token: '$CURRENT_GROUP_TOKEN' })
    return buildCurlCommand(submission.operation, active.baseUrl, submission.request)
  }

  const send = useMutation({
    mutationFn: (submission: Submission): Promise<GroupCallResult> => {
      if (submission.operation === 'rotateToken') return call('groups.rotateToken', { profileId, source: submission.source })
      return call(submission.operation === 'getOrCreate' ? 'groups.getOrCreate' : 'groups.update', { profileId, request: submission.request })
    },
    onSuccess: (result, submission) => {
      setOutcome({ kind: 'success', operation: submission.operation, result, curl: curlFor(submission) })
      const verb = submission.operation === 'rotateToken' ? 'Token rotated' : result.newUserGroup ? 'Group created' : submission.operation === 'update' ? 'Group updated' : 'Group found'
      toast.success(`${verb}: ${result.group.provided_id}.`)
    },
    onError: (failure, submission) => {
      const error = failure instanceof CallError ? failure.error : { code: 'internal' as const, message: failure.message, details: undefined }
      setOutcome({ kind: 'error', operation: submission.operation, code: error.code, message: error.message, details: error.details, curl: curlFor(submission) })
      toast.error(error.message)
    },
    onSettled: () => {
      void queryClient.invalidateQueries({ queryKey: ['catalog'] })
      void queryClient.invalidateQueries({ queryKey: ['activity'] })
    },
  })

  const openRow = async (row: CatalogRow) => {
    const { entry } = await call('catalog.get', { profileId, groupId: row.groupId })
    if (entry) openGroup(entry, operation === 'rotateToken' ? 'rotateToken' : 'update')
  }

  if (isLoading) return <p className="loading">Loading profiles…</p>
  if (error) return <p role="alert" className="error-text">Profiles could not be read: {error.message}</p>
  if (!active) {
    return (
      <EmptyState title="No connection profile is active">
        Choose or create a profile on the Profiles screen (Ctrl+2); the Local sandbox needs no account.
      </EmptyState>
    )
  }

  const blockedReason = send.isPending ? 'Sending…' : null

  return (
    <div className="groups-layout">
      <CatalogPanel profileId={active.id} selectedGroupId={fields.userGroupId || null} onOpen={(row) => void openRow(row)} />
      <div className="stack groups-work">
        <div className="card stack">
          <TabList label="Operation" tabs={TABS} selected={operation} onSelect={setOperation} idPrefix="group-tab" panelId="group-tabpanel" />
          <div id="group-tabpanel" role="tabpanel" aria-labelledby={`group-tab-${operation}`}>
            {operation === 'rotateToken' ? (
              <RotateForm
                key={rotateGroupId}
                profileId={active.id}
                blockedReason={blockedReason}
                onRotate={(source) => send.mutate({ operation: 'rotateToken', source })}
              />
            ) : (
              <GroupForm
                operation={operation}
                blockedReason={blockedReason}
                knownGroup={Boolean(typedGroup.data?.entry)}
                onFillFromCatalog={() => {
                  const entry = typedGroup.data?.entry
                  if (entry) useGroupForm.setState({ fields: fieldsFromCatalog(entry) })
                }}
                onSubmit={(request) => send.mutate({ operation, request })}
              />
            )}
          </div>
          {send.isPending ? (
            <p className="muted" role="status">
              Calling {active.name}…
            </p>
          ) : null}
        </div>
        {/* Keyed by the call, so a new result starts with its token masked again. */}
        {outcome ? <ResultPanel key={send.submittedAt} outcome={outcome} /> : null}
      </div>
    </div>
  )
}
