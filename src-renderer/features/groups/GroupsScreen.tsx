import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query'
import { useEffect, useEffectEvent, useRef, useState } from 'react'
import type { CatalogRow } from '../../../src-shared/catalog/schemas'
import type { GroupCallResult, RotationSource } from '../../../src-shared/ipc/group-calls'
import { KIND_OF_TAG } from '../../../src-shared/profiles/environment'
import type { ProfileView } from '../../../src-shared/profiles/schemas'
import type { SampleCall } from '../../../src-shared/user-api/code-samples'
import type { GetOrCreateRequest } from '../../../src-shared/user-api/schemas'
import { call, CallError } from '../../lib/api'
import { type CallHandoff, useCallHandoff } from '../../lib/call-handoff'
import { needsWriteConfirmation, productionWriteNotice, useCustomerWrites } from '../../lib/customer-writes'
import { isProductionProfile, useActiveProfile, useProfiles } from '../../lib/profiles'
import { queryKeys } from '../../lib/query-keys'
import { ConfirmDialog } from '../../ui/ConfirmDialog'
import { EmptyState } from '../../ui/EmptyState'
import { TabList } from '../../ui/TabList'
import { TeamGroupNote } from '../../ui/TeamGroupNote'
import { toast } from '../../ui/toasts'
import { CatalogPanel } from './CatalogPanel'
import {
  fieldsFromCatalog,
  fieldsFromRequest,
  type GroupOperation,
  type GroupOutcome,
  useWorkspace,
  useWorkspaces,
} from './group-form-state'
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
type Submission = { profile: ProfileView } & (
  { operation: 'getOrCreate' | 'update'; request: GetOrCreateRequest } | { operation: 'rotateToken'; source: RotationSource }
)

const sampleCallOf = (submission: Submission): SampleCall =>
  submission.operation === 'rotateToken' ? { operation: 'rotateToken' } : { operation: submission.operation, request: submission.request }

export default function GroupsScreen() {
  const { active, isLoading, error } = useActiveProfile()
  const queryClient = useQueryClient()
  // Everything on this screen but the catalog's own filters belongs to the active profile.
  const workspace = useWorkspace(active?.id ?? '')
  const { operation, setOperation, fields, openGroup, rotateGroupId, result } = workspace
  const showResult = useWorkspaces((state) => state.showResult)
  const { confirmed, confirm } = useCustomerWrites()
  // The result shown when the screen opened is not news, nor another profile's shown on a switch:
  // only a new one (results are numbered across profiles) takes focus.
  const announced = useRef(useWorkspaces.getState().lastResultId)
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
      const profileId = submission.profile.id
      if (submission.operation === 'rotateToken') return call('groups.rotateToken', { profileId, source: submission.source })
      return call(submission.operation === 'getOrCreate' ? 'groups.getOrCreate' : 'groups.update', {
        profileId,
        request: submission.request,
      })
    },
    // The result panel says what happened and takes focus: no toast to cover it. It goes to the
    // profile the call went through, whichever is active when it answers.
    onSuccess: (value, submission) =>
      record(submission, { kind: 'success', operation: submission.operation, result: value, call: sampleCallOf(submission) }),
    onError: (failure, submission) => {
      const error =
        failure instanceof CallError ? failure.error : { code: 'internal' as const, message: failure.message, details: undefined }
      record(submission, {
        kind: 'error',
        operation: submission.operation,
        code: error.code,
        message: error.message,
        details: error.details,
        call: sampleCallOf(submission),
      })
    },
    onSettled: () => {
      void queryClient.invalidateQueries({ queryKey: queryKeys.catalog.all })
      void queryClient.invalidateQueries({ queryKey: queryKeys.activity.all })
      // The profile may now carry the server's word on its environment.
      void queryClient.invalidateQueries({ queryKey: queryKeys.profiles })
    },
  })
  const record = (submission: Submission, outcome: GroupOutcome) =>
    showResult(submission.profile.id, { outcome, profileName: submission.profile.name, baseUrl: submission.profile.baseUrl })

  const correctKind = useMutation({
    mutationFn: ({ profile, kind }: { profile: ProfileView; kind: ProfileView['environmentKind'] }) =>
      call('profiles.update', { id: profile.id, changes: { environmentKind: kind } }),
    onSuccess: (profile) => {
      toast.success(`“${profile.name}” is now marked ${profile.environmentKind === 'customer' ? 'Customer (production)' : 'Testing'}.`)
      void queryClient.invalidateQueries({ queryKey: queryKeys.profiles })
    },
    onError: (failure) => toast.error(`The profile could not be changed: ${failure.message}`),
  })

  // A new result is where the eye is: scrolled into view, its heading focused for screen readers.
  useEffect(() => {
    if (!result || result.id <= announced.current || !resultHeading.current) return
    announced.current = result.id
    resultHeading.current.focus({ preventScroll: true })
    resultHeading.current.closest('section')?.scrollIntoView({ block: 'nearest', behavior: 'instant' })
  }, [result])

  /** Every write goes through here: a production profile asks once per session first. */
  const submit = (submission: Submission) => {
    if (send.isPending) return
    const { profile } = submission
    const confirmedNow = useCustomerWrites.getState().confirmed
    if (submission.operation !== 'rotateToken' && needsWriteConfirmation(profile, confirmedNow)) {
      setAwaitingConfirmation(submission)
      return
    }
    if (needsWriteConfirmation(profile, confirmedNow)) confirm(profile.id) // the rotation's own dialog said it
    send.mutate(submission)
  }

  // A call handed over from Activity: its profile made active, the whole call in that profile's
  // form (what it did not send emptied), and sent when asked ("Run again"); a rotation only opens
  // its confirmation, with the current token.
  const takeHandoff = useEffectEvent(async (handoff: CallHandoff) => {
    const profile = profiles.data?.profiles.find((candidate) => candidate.id === handoff.profileId)
    if (!profile) return toast.error('The profile that call went through no longer exists.')
    if (profile.id !== active?.id) {
      try {
        await call('profiles.setActive', { id: profile.id })
      } catch (failure) {
        return toast.error(`That call’s profile cannot be used: ${(failure as Error).message}`)
      }
      await queryClient.invalidateQueries({ queryKey: queryKeys.profiles })
      toast.info(`Switched to the profile “${profile.name}”, which that call went through.`)
    }
    const { update } = useWorkspaces.getState()
    if (handoff.kind === 'rotation') {
      update(profile.id, { operation: 'rotateToken', rotateGroupId: handoff.groupId ?? '' })
      setAskRotation(handoff.run)
      return
    }
    update(profile.id, { operation: handoff.operation, fields: fieldsFromRequest(handoff.request) })
    if (handoff.run) submit({ profile, operation: handoff.operation, request: handoff.request })
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
  if (error)
    return (
      <p role="alert" className="error-text">
        Profiles could not be read: {error.message}
      </p>
    )
  if (!active) {
    return (
      <EmptyState title="No connection profile is active">
        Choose or create a profile on the Profiles screen (Ctrl+2); the Local sandbox needs no account.
      </EmptyState>
    )
  }

  const pending = send.isPending ? send.variables : undefined
  const blockedReason = pending ? `Waiting for the call through “${pending.profile.name}”…` : null
  // The correction a mismatch offers, while the profile still says otherwise.
  const shown = result?.outcome
  const mismatch = shown?.kind === 'success' ? shown.result.environmentMismatch : undefined
  const shownProfileId = shown?.kind === 'success' ? shown.result.profileId : undefined
  const resultProfile =
    shown?.kind === 'success' ? profiles.data?.profiles.find((candidate) => candidate.id === shown.result.profileId) : undefined
  const correction =
    mismatch && resultProfile && !resultProfile.builtin && resultProfile.environmentKind === mismatch.profileKind
      ? { profile: resultProfile, kind: KIND_OF_TAG[mismatch.serverTag] }
      : null

  return (
    <div className="groups-layout">
      {/* Keyed by the profile: its search and position are that profile's too. */}
      <CatalogPanel
        key={active.id}
        profileId={active.id}
        selectedGroupId={fields.userGroupId || null}
        sandbox={Boolean(active.builtin)}
        onOpen={(row) => void openRow(row)}
      />
      <div className="card stack groups-form">
        <TabList label="Operation" tabs={TABS} selected={operation} onSelect={setOperation} idPrefix="group-tab" panelId="group-tabpanel" />
        <TeamGroupNote profileId={active.id} groupId={operation === 'rotateToken' ? rotateGroupId : fields.userGroupId} />
        <div id="group-tabpanel" role="tabpanel" aria-labelledby={`group-tab-${operation}`}>
          {operation === 'rotateToken' ? (
            <RotateForm
              key={`${active.id}:${rotateGroupId}:${askRotation}`}
              profileId={active.id}
              profileName={active.name}
              rotateGroupId={rotateGroupId}
              blockedReason={blockedReason}
              customerNotice={needsWriteConfirmation(active, confirmed) ? productionWriteNotice(active) : null}
              askOnOpen={askRotation}
              onRotate={(source) => {
                setAskRotation(false)
                submit({ profile: active, operation: 'rotateToken', source })
              }}
            />
          ) : (
            <GroupForm
              profileId={active.id}
              destination={active.name}
              production={isProductionProfile(active)}
              operation={operation}
              blockedReason={blockedReason}
              knownGroup={Boolean(typedGroup.data?.entry)}
              onFillFromCatalog={() => {
                const entry = typedGroup.data?.entry
                if (entry) workspace.setFields(fieldsFromCatalog(entry))
              }}
              onSubmit={(request) => submit({ profile: active, operation, request })}
            />
          )}
        </div>
        {pending ? (
          <p className="muted" role="status">
            Calling {pending.profile.name}…
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
            profileName={result.profileName}
            baseUrl={result.baseUrl}
            sandbox={Boolean(profiles.data?.profiles.find((candidate) => candidate.id === shownProfileId)?.builtin)}
            correction={
              correction
                ? {
                    label: `Mark “${correction.profile.name}” as ${mismatch!.serverTag}`,
                    pending: correctKind.isPending,
                    run: () => correctKind.mutate(correction),
                  }
                : null
            }
            onUpdateInstead={() => {
              if (shown?.kind !== 'success' || shown.call.operation !== 'getOrCreate') return
              const profile = profiles.data?.profiles.find((candidate) => candidate.id === shown.result.profileId)
              if (!profile) return toast.error('The profile of that call no longer exists.')
              setOperation('update')
              submit({ profile, operation: 'update', request: shown.call.request })
            }}
          />
        ) : (
          <p className="muted groups-result__empty">
            The result of a call through “{active.name}” shows here, with its code in curl, HTTPie, JavaScript and Python.
          </p>
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
          if (!submission) return
          confirm(submission.profile.id)
          send.mutate(submission)
        }}
      >
        {awaitingConfirmation ? (
          <p>
            You are about to {VERBS[awaitingConfirmation.operation]} through {productionWriteNotice(awaitingConfirmation.profile)}
          </p>
        ) : null}
      </ConfirmDialog>
    </div>
  )
}
