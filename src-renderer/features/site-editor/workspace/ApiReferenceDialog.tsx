import { useMemo, useState } from 'react'
import type { ApiReferenceTarget } from '../../../../src-shared/ipc/site-calls'
import { isLoopbackUrl } from '../../../../src-shared/net/loopback'
import {
  API_REFERENCE_FILE,
  type ApiReferenceField,
  baseUrlListToChoose,
  planApiReference,
} from '../../../../src-shared/site-config/api-reference'
import { applyValueChanges } from '../../../../src-shared/site-config/text-edits'
import { useActiveProfile } from '../../../lib/profiles'
import { addApiReference, API_REFERENCE_GROUPS } from '../state/api-reference'
import { closeDialog, useEditorDialogs } from '../state/dialog-store'
import { useEditor } from '../state/editor-store'
import { folderOf, formatWhen } from './format-time'
import { Modal } from './Modal'
import { TextDiff } from './TextDiff'

const FIELD_LABELS: Record<string, string> = {
  openapi: 'OpenAPI file',
  'api.baseUrl': 'API › Base URL',
  'api.auth': 'API › Authentication',
}

const fieldLabel = (path: ApiReferenceField['path']) =>
  path[0] === 'navigation' ? `Navigation › Group ${Number(path[1]) + 1}` : (FIELD_LABELS[path.join('.')] ?? path.join('.'))

const ENDPOINT_PAGES = API_REFERENCE_GROUPS.flatMap((group) => group.pages)

/** A value as one line of JSON with a space after each comma and colon, so it wraps between entries. */
const oneLine = (value: unknown) =>
  JSON.stringify(value, null, 1)
    .replace(/\n\s*/g, ' ')
    .replace(/([[{]) /g, '$1')
    .replace(/ ([\]}])/g, '$1')

const shown = (value: unknown) => (value === undefined ? <span className="muted">not set</span> : <code>{oneLine(value)}</code>)

const kilobytes = (bytes: number) => `${(bytes / 1000).toLocaleString(undefined, { maximumFractionDigits: 1 })} kB`

/**
 * The one question "Add the API reference" asks: what openapi.json will be (and its own
 * confirmation when it replaces a file), and each site.json field before and after, with the
 * choices the active profile calls for (a local address, a list of base URLs).
 */
export function ApiReferenceDialog({ target }: { target: ApiReferenceTarget }) {
  const { active } = useActiveProfile()
  const value = useEditor((state) => state.value)
  const text = useEditor((state) => state.text)
  const error = useEditorDialogs((state) => state.dialogError)
  const busy = useEditorDialogs((state) => state.busy)
  const [writeLocal, setWriteLocal] = useState(false)
  const [list, setList] = useState<'add' | 'replace'>('add')
  const [replaceAgreed, setReplaceAgreed] = useState(false)

  const profileUrl = active?.baseUrl ?? null
  const local = profileUrl !== null && isLoopbackUrl(profileUrl)
  const serverUrl = local ? null : profileUrl
  const baseUrl = profileUrl === null || (local && !writeLocal) ? null : profileUrl
  const listToChoose = baseUrl === null ? null : baseUrlListToChoose(value, baseUrl)
  const plan = useMemo(() => planApiReference(value, { baseUrl, list, groups: API_REFERENCE_GROUPS }), [value, baseUrl, list])
  // The text as it will be, with the edits made as the form makes them (the file's layout kept): the diff shown is the diff saved.
  const after = useMemo(() => (plan.ok ? applyValueChanges(text, plan.changes) : text), [plan, text])
  const needsReplaceAnswer = target.existing !== null && !replaceAgreed
  const add = () =>
    void addApiReference({
      serverUrl,
      baseUrl,
      list,
      ...(target.existing && replaceAgreed ? { replaceToken: target.existing.replaceToken } : {}),
    })

  return (
    <Modal
      title="Add the API reference"
      wide
      actions={
        <>
          <button type="button" className="btn" onClick={closeDialog}>
            Cancel
          </button>
          <button type="button" className="btn btn--primary" disabled={busy || !plan.ok || needsReplaceAnswer} onClick={add}>
            {busy ? 'Adding…' : 'Add the API reference'}
          </button>
        </>
      }
    >
      <div className="api-reference stack">
        <section className="api-reference__part" aria-labelledby="api-reference-file">
          <h3 id="api-reference-file" className="api-reference__heading">
            {target.existing ? 'Replaces' : 'Writes'} <code>{API_REFERENCE_FILE}</code>
          </h3>
          <p>
            The OpenAPI 3.1 description of <code>/api/user</code>, generated from the schemas the app itself uses, in{' '}
            <code>{folderOf(target.path)}</code>.{' '}
            {serverUrl !== null ? (
              <>
                Its server: <code>{serverUrl}</code>, from the profile {active!.name}.
              </>
            ) : local ? (
              <>
                It names no server, since the active profile, {active!.name}, is on this computer: readers set the{' '}
                <code>{'{base_url}'}</code> it leaves for them.
              </>
            ) : (
              <>
                No connection profile is active, so it names no server: readers set the <code>{'{base_url}'}</code> it leaves for them.
              </>
            )}
          </p>
          {target.existing ? (
            <label className="callout callout--warning api-reference__confirm">
              <input type="checkbox" checked={replaceAgreed} autoFocus onChange={(event) => setReplaceAgreed(event.target.checked)} />
              <span>
                Replace the {API_REFERENCE_FILE} already there ({kilobytes(target.existing.size)}, changed{' '}
                {formatWhen(target.existing.modifiedAt)}): what it holds now is lost.
              </span>
            </label>
          ) : null}
          <p>
            And an endpoint page for each of its {ENDPOINT_PAGES.length} operations, as Mintlify’s scraper makes them, in{' '}
            <code>{ENDPOINT_PAGES[0]!.file.slice(0, ENDPOINT_PAGES[0]!.file.lastIndexOf('/') + 1)}</code>: a page already there is kept as
            it is.
          </p>
        </section>

        <section className="api-reference__part" aria-labelledby="api-reference-fields">
          <h3 id="api-reference-fields" className="api-reference__heading">
            Changes in site.json
          </h3>
          {local ? (
            <div className="callout callout--warning api-reference__confirm">
              <p>
                {active!.name} is at <code>{profileUrl}</code>, an address only this computer can reach: readers of the published site will
                not reach it from the playground.
              </p>
              <label>
                <input type="checkbox" checked={writeLocal} onChange={(event) => setWriteLocal(event.target.checked)} /> Write it into the
                base URL anyway, for a local preview
              </label>
            </div>
          ) : null}
          {listToChoose ? (
            <fieldset className="choice">
              <legend>The base URL is a list of {listToChoose.length} the playground offers to choose from</legend>
              <label>
                <input type="radio" name="api-reference-list" checked={list === 'add'} onChange={() => setList('add')} /> Add {baseUrl} to
                the list
              </label>
              <label>
                <input type="radio" name="api-reference-list" checked={list === 'replace'} onChange={() => setList('replace')} /> Replace
                the list with it
              </label>
            </fieldset>
          ) : null}
          {!plan.ok ? (
            <p className="callout callout--danger">{plan.problem}</p>
          ) : plan.fields.length ? (
            <>
              <FieldChanges fields={plan.fields} />
              <TextDiff before={text} after={after} label="site.json, line by line" />
              <p className="muted">
                The API token itself is never written. Undo takes back these changes to site.json in one step, and they are saved when you
                save; {API_REFERENCE_FILE} and the endpoint pages stay as written.
              </p>
            </>
          ) : (
            <p>None: site.json already points at {API_REFERENCE_FILE} with this authentication, and lists its endpoint pages.</p>
          )}
        </section>
        {error ? (
          <p role="alert" className="callout callout--danger">
            {error}
          </p>
        ) : null}
      </div>
    </Modal>
  )
}

function FieldChanges({ fields }: { fields: readonly ApiReferenceField[] }) {
  return (
    <table className="api-reference__changes">
      <thead>
        <tr>
          <th scope="col">Field</th>
          <th scope="col">Now</th>
          <th scope="col">Becomes</th>
        </tr>
      </thead>
      <tbody>
        {fields.map((field) => {
          const key = field.path.join('.')
          return (
            <tr key={key}>
              <th scope="row">{fieldLabel(field.path)}</th>
              <td>{shown(field.before)}</td>
              <td>{shown(field.after)}</td>
            </tr>
          )
        })}
      </tbody>
    </table>
  )
}
