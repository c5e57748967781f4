import { call } from '../../../lib/api'
import { toast } from '../../../ui/toasts'
import { isUnsaved, settleTypedText, useEditor } from './editor-store'

/** Unsaved text is autosaved this long after the last change: a crash loses at most this much typing. */
const DRAFT_DELAY_MS = 800

let timer: ReturnType<typeof setTimeout> | undefined
let queue: Promise<unknown> = Promise.resolve()
/** Documents whose draft this session wrote, so a document that becomes clean again drops it. */
const drafted = new Set<string>()
let failureShownFor: string | null = null

function enqueue(task: () => Promise<unknown>) {
  queue = queue.then(task).catch((error: Error) => {
    const documentId = useEditor.getState().document?.documentId ?? null
    if (failureShownFor === documentId) return
    failureShownFor = documentId
    toast.error(`Unsaved changes could not be autosaved: ${error.message}`)
  })
}

function writeDraft() {
  settleTypedText()
  const state = useEditor.getState()
  const document = state.document
  if (!document) return
  if (isUnsaved(state)) {
    const { documentId, path, version } = document
    const text = state.text
    enqueue(async () => {
      await call('site.draftSave', { documentId, path, text, baseVersion: version })
      drafted.add(documentId)
    })
  } else if (drafted.has(document.documentId)) {
    const { documentId } = document
    drafted.delete(documentId)
    enqueue(() => call('site.draftDiscard', { documentId }))
  }
}

// For the life of the app, not of the screen: a timer still pending when the writer moves to
// another section must still write its draft.
useEditor.subscribe((state, previous) => {
  if (state.text === previous.text && state.document === previous.document) return
  clearTimeout(timer)
  timer = setTimeout(writeDraft, DRAFT_DELAY_MS)
})

/** Cancels the pending autosave and waits for any in flight, so a save or a discard comes after it. */
export async function settleDrafts(): Promise<void> {
  clearTimeout(timer)
  await queue
}

/** After main dropped a document's draft (it was saved), or the writer discarded it. */
export async function discardDraft(documentId: string): Promise<void> {
  await settleDrafts()
  drafted.delete(documentId)
  await call('site.draftDiscard', { documentId })
}

export const forgetDraft = (documentId: string) => drafted.delete(documentId)

/** A draft from an earlier session, restored: it is this session's to update, or to drop once the document is clean again. */
export const adoptDraft = (documentId: string) => drafted.add(documentId)
