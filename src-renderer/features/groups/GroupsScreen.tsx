import { useQuery } from '@tanstack/react-query'
import { useEffect, useRef, useState } from 'react'
import type { CatalogRow } from '../../../src-shared/catalog/schemas'
import { call } from '../../lib/api'
import { needsWriteConfirmation, productionWriteNotice, useCustomerWrites } from '../../lib/customer-writes'
import { isProductionProfile, useActiveProfile, useProfiles } from '../../lib/profiles'
import { queryKeys } from '../../lib/query-keys'
import { EmptyState } from '../../ui/EmptyState'
import { TabList } from '../../ui/TabList'
import { TeamGroupNote } from '../../ui/TeamGroupNote'
import { useCallHandoffIntake } from './call-handoff-intake'
import { CatalogPanel } from './CatalogPanel'
import { fieldsFromCatalog, type GroupOperation, type ShownResult, useWorkspace, useWorkspaces } from './group-form-state'
import { useGroupSubmission } from './group-submission'
import { GroupForm } from './GroupForm'
import { GroupResult } from './GroupResult'
import { ProductionWriteDialog } from './ProductionWriteDialog'
import { RotateForm } from './RotateForm'

const TABS: { id: GroupOperation; label: string }[] = [
  { id: 'getOrCreate', label: 'Get or create' },
  { id: 'update', label: 'Update' },
  { id: 'rotateToken', label: 'Rotate token' },
]

/**
 * A new result is where the eye is: scrolled into view, its heading focused for screen readers.
 * The result shown when the screen opened is not news, nor another profile's shown on a switch:
 * only a new one (results are numbered across profiles) takes focus.
 */
function useNewResultFocus(result: ShownResult | null) {
  const announced = useRef(useWorkspaces.getState().lastResultId)
  const heading = useRef<HTMLHeadingElement>(null)
  useEffect(() => {
    if (!result || result.id <= announced.current || !heading.current) return
    announced.current = result.id
    heading.current.focus({ preventScroll: true })
    heading.current.closest('section')?.scrollIntoView({ block: 'nearest', behavior: 'instant' })
  }, [result])
  return heading
}

export default function GroupsScreen() {
  const { active, isLoading, error } = useActiveProfile()
  // Everything on this screen but the catalog's own filters belongs to the active profile.
  const workspace = useWorkspace(active?.id ?? '')
  const { operation, setOperation, fields, openGroup, rotateGroupId, result } = workspace
  const { confirmed } = useCustomerWrites()
  const { submit, pending, awaitingConfirmation, confirmAwaiting, cancelAwaiting } = useGroupSubmission()
  const [askRotation, setAskRotation] = useState(false)
  const resultHeading = useNewResultFocus(result)
  const profiles = useProfiles()
  const profileId = active?.id
  useCallHandoffIntake({
    profiles: profiles.data?.profiles,
    profilesLoaded: profiles.isSuccess,
    activeProfileId: profileId,
    submit,
    askRotation: setAskRotation,
  })

  const typedGroup = useQuery({
    queryKey: queryKeys.catalog.entry(profileId, fields.userGroupId),
    queryFn: () => call('catalog.get', { profileId, groupId: fields.userGroupId }),
    enabled: Boolean(profileId && fields.userGroupId.trim()),
  })

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

  const blockedReason = pending ? `Waiting for the call through “${pending.profile.name}”…` : null

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
        <GroupResult
          result={result}
          headingRef={resultHeading}
          profiles={profiles.data?.profiles ?? []}
          activeProfileName={active.name}
          onUpdateInstead={(profile, request) => {
            setOperation('update')
            submit({ profile, operation: 'update', request })
          }}
        />
      </div>
      <ProductionWriteDialog submission={awaitingConfirmation} onCancel={cancelAwaiting} onConfirm={confirmAwaiting} />
    </div>
  )
}
