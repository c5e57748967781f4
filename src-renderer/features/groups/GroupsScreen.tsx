import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query'
import { useEffect, useEffectEvent, useRef, useState } from 'react'
import type { CatalogRow } from '../../../src-shared/catalog/schemas'
import type { GroupCallResult, RotationSource } from '../../../src-shared/ipc/group-calls'
import type { ProfileView } from '../../../src-shared/profiles/schemas'
import type { SampleCall } from '../../../src-shared/user-api/code-samples'
import type { GetOrCreateRequest } from '../../../src-shared/user-api/schemas'
import { call, CallError } from '../../lib/api'
import { useCallHandoff, type CallHandoff } from '../../lib/call-handoff'
import { PROFILES_QUERY_KEY, useActiveProfile, useProfiles } from '../../lib/profiles'
import { needsWriteConfirmation, useCustomerWrites } from '../../lib/customer-writes'
import { queryKeys } from '../../lib/query-keys'
import { ConfirmDialog } from '../../ui/ConfirmDialog'
import { EmptyState } from '../../ui/EmptyState'
import { TabList } from '../../ui/TabList'
import { TeamGroupNote } from '../../ui/TeamGroupNote'
import { toast } from '../../ui/toasts'
import { CatalogPanel } from './CatalogPanel'
import { fieldsFromCatalog, fieldsFromRequest, useGroupForm, type GroupOperation } from './group-form-state'
import { GroupForm } from './GroupForm'
import { ResultPanel } from './ResultPanel'
import { RotateForm } from './RotateForm'

const TABS: { id: GroupOperation; label: string }[] = [
  { id: 'getOrCreate', label: 'Get or create' },
  { id: 'update', label: 'Update' },
  { id: 'rotateToken', label: 'Rotate token' },
]

const VERBS: Record<GroupOperation, string> = { getOrCreate: 'get or create', update: 'update', rotateToken: 'rotate a token' }

/** A call to send, through the profile it names (the active one when it was made). */
type Submission = { profileId: string } & ({ operation: 'getOrCreate' | 'update'; request: GetOrCreateRequest } | { operation: 'rotateToken'; source: RotationSource })

const sampleCallOf = (submission: Submission): SampleCall =>
  submission.operation === 'rotateToken' ? { operation: 'rotateToken' } : { operation: submission.operation, request: submission.request }

const customerNoticeFor = (profile: ProfileView) =>
  `“${profile.name}” is a Customer (production) profile: this changes live groups at ${profile.baseUrl}. Once you confirm, writes through it are not asked about again this session.`

export default function GroupsScreen() {
  const { active, isLoading, error } = useActiveProfile()
  const queryClient = useQueryClient()
  const { operation, setOperation, fields, openGroup, rotateGroupId, result, showResult } = useGroupForm()
  const { confirmed, confirm } = useCustomerWrites()
  // The result shown when the screen opened is not news: only a new one takes focus.
  const announced = useRef(result?.id ?? 0)
  const [awaitingConfirmation, setAwaitingConfirmation] = useState<Submission | null>(null)
  const [askRotation, setAskRotation] = useState(false)
  const resultHeading = useRef<HTMLHeadingElement>(null)
  const profiles = useProfiles()
  const profileId = active?.id

  const typedGroup = useQuery({
    queryKey: queryKeys.catalog.entry(profileId, fields.userGroupId),
    queryFn: () => call('catalog.get', { profileId, groupId: fields.userGroupId }),
    enabled: Boolean(profileId && fields.userGroupId.trim()),
  })

  const send = useMutation({
    mutationFn: (submission: Submission): Promise<GroupCallResult> => {
      const { profileId } = submission
      if (submission.operation === 'rotateToken') return call('groups.rotateToken', { profileId, source: submission.source })
      return call(submission.operation === 'getOrCreate' ? 'groups.getOrCreate' : 'groups.update', { profileId, request: submission.request })
    },
    // The result panel says what happened and takes focus: no toast to cover it.
    onSuccess: (value, submission) => showResult({ kind: 'success', operation: submission.operation, result: value, call: sampleCallOf(submission) }),
    onError: (failure, submission) => {
      const error = failure instanceof CallError ? failure.error : { code: 'internal' as const, message: failure.message, details: undefined }
      showResult({ kind: 'error', operation: submission.operation, code: error.code, message: error.message, details: error.details, call: sampleCallOf(submission) })
    },
    onSettled: () => {
      void queryClient.invalidateQueries({ queryKey: queryKeys.catalog.all })
      void queryClient.invalidateQueries({ queryKey: queryKeys.activity.all })
    },
  })

  // A new result is where the eye is: scrolled into view, its heading focused for screen readers.
  useEffect(() => {
    if (!result || result.id === announced.current || !resultHeading.current) return
    announced.current = result.id
    resultHeading.current.focus({ preventScroll: true })
    resultHeading.current.closest('section')?.scrollIntoView({ block: 'nearest', behavior: 'instant' })
  }, [result])

  /** Every write goes through here: a Customer profile asks once per session first. */
  const submit = (submission: Submission, profile: ProfileView) => {
    if (send.isPending) return
    const confirmedNow = useCustomerWrites.getState().confirmed
    if (submission.operation !== 'rotateToken' && needsWriteConfirmation(profile, confirmedNow)) {
      setAwaitingConfirmation(submission)
      return
    }
    if (needsWriteConfirmation(profile, confirmedNow)) confirm(profile.id) // the rotation's own dialog said it
    send.mutate(submission)
  }

  // A call handed over from Activity: its profile made active, its request in the form, and sent
  // when asked ("Run again"); a rotation only opens its confirmation, with the current token.
  const takeHandoff = useEffectEvent(async (handoff: CallHandoff) => {
    const profile = profiles.data?.profiles.find((candidate) => candidate.id === handoff.profileId)
    if (!profile) return toast.error('The profile that call went through no longer exists.')
    if (profile.id !== active?.id) {
      try {
        await call('profiles.setActive', { id: profile.id })
      } catch (failure) {
        return toast.error(`That call’s profile cannot be used: ${(failure as Error).message}`)
      }
      await queryClient.invalidateQueries({ queryKey: PROFILES_QUERY_KEY })
      toast.info(`Switched to the profile “${profile.name}”, which that call went through.`)
    }
    if (handoff.kind === 'rotation') {
      useGroupForm.setState({ operation: 'rotateToken', rotateGroupId: handoff.groupId ?? '' })
      setAskRotation(handoff.run)
      return
    }
    useGroupForm.setState({ operation: handoff.operation, fields: fieldsFromRequest(handoff.request) })
    if (handoff.run) submit({ profileId: profile.id, operation: handoff.operation, request: handoff.request }, profile)
  })
  const profilesLoaded = profiles.isSuccess
  useEffect(() => {
    if (!profilesLoaded) return
    const next = () => {
      const handoff = useCallHandoff.getState().take()
      if (handoff) void takeHandoff(handoff)
    }
    next()
    return useCallHandoff.subscribe(next)
  }, [profilesLoaded])

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
      <div className="card stack groups-form">
        <TabList label="Operation" tabs={TABS} selected={operation} onSelect={setOperation} idPrefix="group-tab" panelId="group-tabpanel" />
        <TeamGroupNote profileId={active.id} groupId={operation === 'rotateToken' ? rotateGroupId : fields.userGroupId} />
        <div id="group-tabpanel" role="tabpanel" aria-labelledby={`group-tab-${operation}`}>
          {operation === 'rotateToken' ? (
            <RotateForm
              key={`${rotateGroupId}:${askRotation}`}
              profileId={active.id}
              blockedReason={blockedReason}
              customerNotice={needsWriteConfirmation(active, confirmed) ? customerNoticeFor(active) : null}
              askOnOpen={askRotation}
              onRotate={(source) => {
                setAskRotation(false)
                submit({ profileId: active.id, operation: 'rotateToken', source }, active)
              }}
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
              onSubmit={(request) => submit({ profileId: active.id, operation, request }, active)}
            />
          )}
        </div>
        {send.isPending ? (
          <p className="muted" role="status">
            Calling {active.name}…
          </p>
        ) : null}
      </div>
      <div className="groups-result">
        {/* Keyed by the call, so a new result starts with its token masked again. */}
        {result ? (
          <ResultPanel
            key={result.id}
            ref={resultHeading}
            outcome={result.outcome}
            baseUrl={active.baseUrl}
            onUpdateInstead={() => {
              const shown = result.outcome
              if (shown.kind !== 'success' || shown.call.operation !== 'getOrCreate') return
              const profile = profiles.data?.profiles.find((candidate) => candidate.id === shown.result.profileId)
              if (!profile) return toast.error('The profile of that call no longer exists.')
              setOperation('update')
              submit({ profileId: profile.id, operation: 'update', request: shown.call.request }, profile)
            }}
          />
        ) : (
          <p className="muted groups-result__empty">The result of a call shows here, with its code in curl, HTTPie, JavaScript and Python.</p>
        )}
      </div>
      <ConfirmDialog
        open={awaitingConfirmation !== null}
        title="Write to a Customer (production) environment?"
        confirmLabel="Continue"
        onCancel={() => setAwaitingConfirmation(null)}
        onConfirm={() => {
          const submission = awaitingConfirmation
          setAwaitingConfirmation(null)
          confirm(active.id)
          if (submission) send.mutate(submission)
        }}
      >
        <p>
          You are about to {awaitingConfirmation ? VERBS[awaitingConfirmation.operation] : 'write'} through “{active.name}”, a Customer (production) profile: this changes live
          groups at <code className="long-value">{active.baseUrl}</code>. Once you confirm, writes through it are not asked about again this session.
        </p>
      </ConfirmDialog>
    </div>
  )
}

