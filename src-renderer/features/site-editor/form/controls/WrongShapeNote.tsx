import { showView } from '../../state/view-store'

/** Where the file holds something the form has no control for (a number where a list belongs): the raw view can edit it. */
export function WrongShapeNote({ id, what }: { id: string; what: string }) {
  return (
    <p id={id} tabIndex={-1} className="callout callout--warning wrong-shape">
      {what} holds a value the form cannot show.
      <button type="button" className="btn btn--small" onClick={() => showView('json')}>
        Edit in JSON
      </button>
    </p>
  )
}
