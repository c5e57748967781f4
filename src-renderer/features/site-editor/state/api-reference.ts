import { messageOf } from '../../../../src-shared/ipc/error-message'
import { API_REFERENCE_FILE, type ApiReferenceOptions, planApiReference } from '../../../../src-shared/site-config/api-reference'
import { apiReferenceGroups } from '../../../../src-shared/site-config/api-reference-pages'
import { buildOpenApiDocument } from '../../../../src-shared/user-api/openapi'
import { call, CallError } from '../../../lib/api'
import { toast } from '../../../ui/toasts'
import { closeDialog, openDialog, showDialogError, useEditorDialogs } from './dialog-store'
import { loadDocs } from './docs-store'
import { editDocument, formCanEdit, useEditor } from './editor-store'
import { chooseWhereToWrite } from './file-commands'

// "Add the API reference": main writes openapi.json (the OpenAPI document of /api/user, from the
// one schema) beside site.json, and the editor points site.json at it, after one question that
// says what will change. The field edits are one undo step; the file written stays.

/** The endpoint pages the navigation gets: one per operation of the document main writes, grouped by tag. */
export const API_REFERENCE_GROUPS = apiReferenceGroups(buildOpenApiDocument())

/** Opens the question: an untitled document is asked to be saved first, since the file goes beside it. */
export async function startApiReference(): Promise<void> {
  const state = useEditor.getState()
  const { document } = state
  if (!document || !formCanEdit(state)) return
  if (document.path === null) {
    return openDialog({
      kind: 'confirm',
      title: 'Save the site first',
      body: `The API reference is written next to site.json, as ${API_REFERENCE_FILE} in the same folder, so this untitled document needs a file first. Save it, then choose Add the API reference again.`,
      choices: [{ label: 'Save as…', tone: 'primary', run: () => void chooseWhereToWrite('saveAs') }],
    })
  }
  try {
    openDialog({ kind: 'apiReference', target: await call('site.apiReferenceTarget', { documentId: document.documentId }) })
  } catch (error) {
    toast.error(messageOf(error))
  }
}

export interface ApiReferenceChoice extends Omit<ApiReferenceOptions, 'groups'> {
  /** The server openapi.json names: the profile's base URL, or null (no profile, or one only this computer reaches). */
  serverUrl: string | null
  /** The answer to "replace the openapi.json already there?", for that file as the dialog described it. */
  replaceToken?: string
}

/** The question answered: the file is written first, and only then are the fields changed. */
export async function addApiReference({ serverUrl, replaceToken, ...options }: ApiReferenceChoice): Promise<void> {
  const document = useEditor.getState().document
  if (!document) return
  useEditorDialogs.setState({ busy: true })
  try {
    const written = await call('site.writeApiReference', {
      documentId: document.documentId,
      serverUrl,
      ...(replaceToken ? { replaceToken } : {}),
    })
    const plan = planApiReference(useEditor.getState().value, { ...options, groups: API_REFERENCE_GROUPS })
    if (plan.ok) editDocument(plan.changes, null, plan.next)
    closeDialog()
    const pages = written.pagesWritten.length
    const wrote = `${written.replaced ? 'Replaced' : 'Wrote'} ${API_REFERENCE_FILE}${pages ? ` and ${pages === 1 ? 'one endpoint page' : `${pages} endpoint pages`}` : ''}`
    const changed = plan.ok ? plan.fields.length : 0
    toast.success(
      changed
        ? `${wrote}, and changed ${changed === 1 ? 'one field' : `${changed} fields`} of site.json. Undo takes back the changes to site.json; the files stay as written.`
        : `${wrote}; site.json already pointed at it.`,
    )
    if (!plan.ok) toast.error(plan.problem)
    // Index the folder again now, rather than when the watcher notices: the new file is checked at once.
    void loadDocs()
  } catch (error) {
    if (error instanceof CallError && error.code === 'conflict') return askAgain(document.documentId, error.message)
    showDialogError(messageOf(error))
  } finally {
    useEditorDialogs.setState({ busy: false })
  }
}

/** openapi.json appeared or changed since the question: ask again, about the file as it is now. */
async function askAgain(documentId: string, why: string) {
  try {
    openDialog({ kind: 'apiReference', target: await call('site.apiReferenceTarget', { documentId }) })
    showDialogError(why)
  } catch (error) {
    showDialogError(messageOf(error))
  }
}
