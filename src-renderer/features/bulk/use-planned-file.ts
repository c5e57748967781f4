import { useMutation, useQueryClient } from '@tanstack/react-query'
import { useState } from 'react'
import { decodeInput, type InputEncoding } from '../../../src-shared/bulk/decode'
import { type BulkKind, type BulkSettings, MAX_BULK_FILE_CHARACTERS } from '../../../src-shared/bulk/schemas'
import type { BulkPlan } from '../../../src-shared/ipc/bulk-calls'
import { call } from '../../lib/api'
import { queryKeys } from '../../lib/query-keys'
import { toast } from '../../ui/toasts'

interface Chosen {
  fileName: string
  text: string
}

/** A file that is not text in the encoding asked for: the operator may read it as another. */
interface NotText {
  file: File
  message: string
}

interface PlannedFileOptions {
  kind: BulkKind
  /** The active profile's: a plan is made against its catalog. */
  profileId: string | undefined
  /** The settings as chosen at the moment the plan is asked for; main keeps them with the run. */
  settings: () => BulkSettings
}

/**
 * The file of a new run and its plan: the file is read and decoded here, then planned by main
 * (every row checked, against the catalog). A plan that still has problems has no run yet;
 * leaving the problems out plans the same text again without them.
 */
export function usePlannedFile({ kind, profileId, settings }: PlannedFileOptions) {
  const queryClient = useQueryClient()
  const [chosen, setChosen] = useState<Chosen | null>(null)
  const [plan, setPlan] = useState<BulkPlan | null>(null)
  const [notText, setNotText] = useState<NotText | null>(null)

  const planner = useMutation({
    mutationFn: ({ file, excludeInvalid }: { file: Chosen; excludeInvalid: boolean }) =>
      call('bulk.plan', { kind, profileId: profileId!, fileName: file.fileName, text: file.text, excludeInvalid, settings: settings() }),
    onSuccess: (answer) => {
      setPlan(answer)
      void queryClient.invalidateQueries({ queryKey: queryKeys.bulk.runs })
    },
    onError: (error) => toast.error(error.message),
  })

  const take = async (file: File | undefined, encoding: InputEncoding = 'utf-8') => {
    if (!file) return
    if (file.size > MAX_BULK_FILE_CHARACTERS * 4) return toast.error(`${file.name} is too large for one run: split it.`)
    const decoded = decodeInput(new Uint8Array(await file.arrayBuffer()), file.name, encoding)
    setPlan(null)
    if (!decoded.ok) {
      // Never planned with U+FFFD in place of each accented letter: the operator chooses.
      setNotText({ file, message: decoded.message })
      setChosen(null)
      return
    }
    setNotText(null)
    const next = { fileName: file.name, text: decoded.text }
    setChosen(next)
    planner.mutate({ file: next, excludeInvalid: false })
  }

  return {
    fileName: chosen?.fileName,
    plan,
    notText,
    planning: planner.isPending,
    take,
    leaveProblemsOut: () => chosen && planner.mutate({ file: chosen, excludeInvalid: true }),
    /** Forgets the file and its plan (another kind of run, or the run started). */
    clear: () => {
      setChosen(null)
      setPlan(null)
    },
  }
}
