import { useMutation, useQueryClient } from '@tanstack/react-query'
import { type DragEvent, useState } from 'react'
import type { BulkKind } from '../../../src-shared/bulk/schemas'
import { writesToProduction } from '../../../src-shared/profiles/environment'
import { call } from '../../lib/api'
import { countFormat } from '../../lib/count-format'
import { useCustomerWrites } from '../../lib/customer-writes'
import { useActiveProfile } from '../../lib/profiles'
import { queryKeys } from '../../lib/query-keys'
import { toast } from '../../ui/toasts'
import { useBulkScreen } from './bulk-state'
import { FileChooser, NotTextWarning } from './FileChooser'
import { PlanProblems } from './PlanProblems'
import { ProductionRunDialog } from './ProductionRunDialog'
import { initialChoices, rowsToSend, type RunChoices, settingsFor } from './run-choices'
import { RunKindChoice } from './RunKindChoice'
import { RunSettingsForm } from './RunSettingsForm'
import { usePlannedFile } from './use-planned-file'

/**
 * Choose a file, see its plan (or its problems), choose what to send and how fast, start. Nothing
 * is sent before Start: the plan is the default, as a dry run is in the CLI. The rate starts at
 * the profile's last one (every run to a profile shares its pace).
 */
export function NewRunPanel({ initialRate }: { initialRate: number | null }) {
  const { active } = useActiveProfile()
  const queryClient = useQueryClient()
  const open = useBulkScreen((state) => state.open)
  const [kind, setKind] = useState<BulkKind>('apply')
  const [choices, setChoices] = useState<RunChoices>(() => initialChoices(initialRate))
  const [dragging, setDragging] = useState(false)
  const [asking, setAsking] = useState(false)
  const confirmCustomer = useCustomerWrites((state) => state.confirm)
  const settings = () => settingsFor(kind, choices)
  const input = usePlannedFile({ kind, profileId: active?.id, settings })

  const starter = useMutation({
    mutationFn: (runId: string) => call('bulk.start', { runId, settings: settings() }),
    onSuccess: (run) => {
      toast.success(`Started: ${countFormat.format(run.planned.total - run.planned.unchanged)} rows of ${run.fileName}.`)
      open(run.id)
      input.clear()
      void queryClient.invalidateQueries({ queryKey: queryKeys.bulk.all })
    },
    onError: (error) => toast.error(error.message),
  })

  const onDrop = (event: DragEvent) => {
    event.preventDefault()
    setDragging(false)
    void input.take(event.dataTransfer.files[0])
  }

  if (!active) return null
  // A Customer profile, or one marked Testing whose server put its groups in Customer.
  const customer = writesToProduction(active) && !active.builtin
  const { plan, notText } = input
  const runId = plan?.runId ?? null
  const toSend = rowsToSend(plan, kind, choices)

  return (
    <section
      className={`card stack bulk-new${dragging ? ' bulk-new--dragging' : ''}`}
      aria-labelledby="bulk-new-title"
      onDragOver={(event) => (event.preventDefault(), setDragging(true))}
      onDragLeave={() => setDragging(false)}
      onDrop={onDrop}
    >
      <h2 id="bulk-new-title" className="card__title">
        New run through “{active.name}”
      </h2>
      <RunKindChoice
        kind={kind}
        onChoose={(next) => {
          setKind(next)
          input.clear()
        }}
      />
      <FileChooser kind={kind} fileName={input.fileName} onFile={input.take} />
      {notText ? <NotTextWarning message={notText.message} onRead={(encoding) => void input.take(notText.file, encoding)} /> : null}
      {input.planning ? (
        <p className="muted" role="status">
          Checking every row of {input.fileName}…
        </p>
      ) : null}
      {plan && plan.problemCount > 0 ? (
        <PlanProblems plan={plan} fileName={input.fileName} planning={input.planning} onLeaveOut={input.leaveProblemsOut} />
      ) : null}
      {plan && runId ? (
        <RunSettingsForm
          runId={runId}
          plan={plan}
          kind={kind}
          fileName={input.fileName}
          choices={choices}
          onChoose={(chosen) => setChoices((current) => ({ ...current, ...chosen }))}
          planning={input.planning}
          toSend={toSend}
          production={customer}
          sandbox={Boolean(active.builtin)}
          starting={starter.isPending}
          // Many writes at once to production: a Customer profile asks every time, not once a session.
          onStart={() => (customer ? setAsking(true) : starter.mutate(runId))}
        />
      ) : null}
      <ProductionRunDialog
        open={asking}
        profile={active}
        kind={kind}
        toSend={toSend}
        onCancel={() => setAsking(false)}
        onConfirm={() => {
          setAsking(false)
          confirmCustomer(active.id)
          if (runId) starter.mutate(runId)
        }}
      />
    </section>
  )
}
