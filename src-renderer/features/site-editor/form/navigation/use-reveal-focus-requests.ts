import { useEffect } from 'react'
import type { Path } from '../../state/json-path'
import { useEditorView } from '../../state/view-store'

/**
 * The last focus request answered by an editor that answers requests made while it was away: kept outside it, since it is
 * drawn again from nothing. One navigation editor is drawn at a time (one document is open).
 */
const answeredAcrossMounts = { serial: 0 }

/**
 * Answers each focus request into the navigation (a problem clicked in Problems, a search match) once, with `reveal`: the
 * editor opens the rows above the place and scrolls to it, so the form's focus request (use-focus-requests.ts) finds the
 * field drawn. With `answerMissed`, a request made while the editor was away (the JSON view shown, say) is answered as it
 * is drawn again, and one already answered is not, so rows folded since stay folded; without it, only requests made while
 * it is drawn are. `reveal` must keep its identity across renders (useCallback).
 */
export function useRevealFocusRequests(reveal: (segments: Path) => void, { answerMissed }: { answerMissed: boolean }) {
  useEffect(() => {
    const answered = answerMissed ? answeredAcrossMounts : { serial: useEditorView.getState().focusRequest?.serial ?? 0 }
    const answer = (request: { segments: Path; serial: number } | null) => {
      if (!request || request.serial <= answered.serial) return
      answered.serial = request.serial
      if (request.segments[0] === 'navigation') reveal(request.segments)
    }
    answer(useEditorView.getState().focusRequest)
    return useEditorView.subscribe((state) => answer(state.focusRequest))
  }, [reveal, answerMissed])
}
