import { useEffect, useMemo, useRef, useState } from 'react'
import { PREVIEW_FRAME_PATH } from '../../../../src-shared/ipc/preview'
import { openApiFilesOf } from '../../../../src-shared/site-config/docs-files'
import type { OperationSummary } from '../../../../src-shared/site-config/openapi-operation'
import { resolveRefs } from '../../../../src-shared/site-config/refs'
import { call } from '../../../lib/api'
import { useEditor } from '../state/editor-store'
import { refFilesFor } from '../state/ref-store'
import { focusField } from '../state/view-store'
import { FromFrameSchema, type ToFrame } from './frame-protocol'
import { loadPage, operationSummaries } from './page-loader'
import { webHost } from './picture-urls'
import { usePreview } from './preview-store'
import { siteModel } from './site-model'

// The preview while it is shown: the docs site drawn in a sandboxed frame (no same origin, a
// content security policy of its own) from the open document and its docs folder. Every edit
// sends the frame the site as it now is; the frame answers only with what a reader does (open a
// page, pick a tab) or a click on something broken, which goes to its field. Hidden, none of
// this runs: the editor pays nothing for a preview it does not show.

/** The document as its $ref files complete it, worked out again only when one of them changes. */
function useResolvedConfig() {
  const value = useEditor((state) => state.value)
  const refTexts = useEditor((state) => state.refTexts)
  const refsRead = useEditor((state) => state.refFilesRead)
  return useMemo(() => {
    const refs = refFilesFor(refTexts)
    return refs.size ? resolveRefs(value, refs).value : value
    // refsRead: the $ref files read from disk (not edited) are in ref-store; a new read counts here.
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [value, refTexts, refsRead])
}

/** The operations of the OpenAPI files the document names, read once per file and document. */
function useSpecs(documentId: string | undefined, files: readonly string[]) {
  const [specs, setSpecs] = useState<ReadonlyMap<string, readonly OperationSummary[]>>(new Map())
  const key = files.join('\0')
  useEffect(() => {
    if (!documentId || !key) return
    let live = true
    void Promise.all(key.split('\0').map(async (file) => [file, await operationSummaries(documentId, file).catch(() => [])] as const)).then(
      (entries) => live && setSpecs(new Map(entries)),
    )
    return () => {
      live = false
    }
  }, [documentId, key])
  return specs
}

/**
 * Where the frame finds the document's folder (and, with leave, pictures from the web): asked
 * again when the folder or the leave changes. Undefined until main answers, so the frame loads
 * once, with its policy already naming the folder.
 */
function useFilesBase(documentId: string | undefined, root: string | null, webPictures: boolean) {
  const [filesBase, setFilesBase] = useState<string | null | undefined>(undefined)
  useEffect(() => {
    if (!documentId) return
    let live = true
    void call('site.previewFiles', { documentId, webPictures })
      .then(({ base }) => live && setFilesBase(base ? `${window.location.origin}${base}` : null))
      .catch(() => live && setFilesBase(null))
    return () => {
      live = false
    }
  }, [documentId, root, webPictures])
  return filesBase
}

export function LivePreview() {
  const { selection, current, mode, problem, webPictures, pagePictures } = usePreview()
  const documentId = useEditor((state) => state.document?.documentId)
  const docs = useEditor((state) => state.docs)
  const config = useResolvedConfig()
  const frame = useRef<HTMLIFrameElement>(null)
  // Counts the frame's loads: each new document in the frame is sent everything again.
  const [ready, setReady] = useState(0)
  const loadedBase = useFilesBase(documentId, docs?.lookup.index.root ?? null, webPictures)
  const filesBase = loadedBase ?? null
  const specFiles = useMemo(() => openApiFilesOf(config).slice(0, 20), [config])
  const specs = useSpecs(documentId, specFiles)

  const model = useMemo(
    () => siteModel({ config, docs: docs?.lookup ?? null, specs, selection, filesBase, current, webPictures }),
    [config, docs, specs, selection, filesBase, current, webPictures],
  )
  const firstPage = model.sidebar.find((row) => row.kind === 'page' && !row.missing)
  const shown = current ?? (firstPage?.kind === 'page' ? firstPage.page : null)

  const send = (message: ToFrame) => frame.current?.contentWindow?.postMessage(message, '*')
  useEffect(() => {
    const onMessage = (event: MessageEvent) => {
      if (event.source !== frame.current?.contentWindow) return
      const parsed = FromFrameSchema.safeParse(event.data)
      if (!parsed.success) return
      const message = parsed.data
      if (message.kind === 'ready') setReady((count) => count + 1)
      else if (message.kind === 'open') usePreview.setState({ current: message.page, problem: null })
      else if (message.kind === 'select')
        usePreview.setState((state) => ({
          selection: { ...state.selection, [message.level]: message.index },
          current: null,
          problem: null,
        }))
      else if (message.kind === 'focus') focusField(message.segments)
      else if (message.kind === 'problem') usePreview.setState({ problem: message.message })
      else if (message.kind === 'web-pictures') usePreview.setState({ pagePictures: { page: message.page, addresses: message.addresses } })
    }
    window.addEventListener('message', onMessage)
    return () => window.removeEventListener('message', onMessage)
  }, [])

  useEffect(() => {
    if (ready) send({ kind: 'site', site: { ...model, current: shown }, mode })
  }, [ready, model, mode, shown])
  useEffect(() => {
    if (!ready) return
    const index = docs?.lookup.index
    send({
      kind: 'folder',
      folder: {
        filesBase,
        pages: index?.pages.map((page) => page.path) ?? [],
        files: index ? [...index.files, ...index.pages.map((page) => page.file)] : [],
        webPictures,
      },
    })
  }, [ready, docs, filesBase, webPictures])
  useEffect(() => {
    if (!ready || !documentId || !shown) return
    let live = true
    void loadPage(documentId, shown, docs?.lookup ?? null, specFiles).then((content) => live && send({ kind: 'page', content }))
    return () => {
      live = false
    }
    // specFiles: read again when the document names other OpenAPI files.
  }, [ready, documentId, shown, docs, specFiles])

  const pageRow = model.sidebar.find((row) => row.kind === 'page' && row.page === shown)
  const fromTheWeb = [...new Set([...model.webPictures, ...(pagePictures?.page === shown ? pagePictures.addresses : [])])]
  return (
    <>
      {problem ? (
        <div className="callout callout--warning site-preview__problem" role="alert">
          <span>{problem}</span>
          {pageRow ? (
            <button type="button" className="btn btn--small" onClick={() => focusField(pageRow.segments)}>
              Show the page in the navigation
            </button>
          ) : null}
          <button type="button" className="btn btn--small btn--ghost" onClick={() => usePreview.setState({ problem: null })}>
            Dismiss
          </button>
        </div>
      ) : null}
      {fromTheWeb.length ? <WebPicturesNotice addresses={fromTheWeb} allowed={webPictures} /> : null}
      {loadedBase !== undefined ? (
        <iframe
          ref={frame}
          id="site-preview-frame"
          className="site-preview__frame"
          title="Site preview"
          // Scripts for the frame's own drawing code; no same origin, so nothing in it reaches the
          // app's page, its storage, its cookie or the bridge to main.
          sandbox="allow-scripts"
          referrerPolicy="no-referrer"
          src={`${PREVIEW_FRAME_PATH}${filesBase ? `?files=${encodeURIComponent(filesBase.split('/').at(-2) ?? '')}` : ''}`}
        />
      ) : null}
    </>
  )
}

/**
 * Pictures from the web, as a mail client treats them: not loaded (loading one tells its server
 * that someone reads the page) until the operator allows them for this document. Main then
 * fetches them, never from this computer or its private networks.
 */
function WebPicturesNotice({ addresses, allowed }: { addresses: readonly string[]; allowed: boolean }) {
  const hosts = [...new Set(addresses.map(webHost))]
  const named = `${hosts.slice(0, 3).join(', ')}${hosts.length > 3 ? ` and ${hosts.length - 3} more` : ''}`
  const count = addresses.length === 1 ? 'One picture' : `${addresses.length} pictures`
  return (
    <div className="callout site-preview__pictures" role="status">
      {allowed ? (
        <span>
          Pictures from the web are shown for this document ({named}), fetched by Embed Console, never from this computer or a private
          network.
        </span>
      ) : (
        <span>
          {count} from the web {addresses.length === 1 ? 'is' : 'are'} not shown ({named}): loading {addresses.length === 1 ? 'it' : 'them'}{' '}
          tells {hosts.length === 1 ? 'its server' : 'their servers'} that the page is being read.
        </span>
      )}
      <button type="button" className="btn btn--small" onClick={() => usePreview.setState({ webPictures: !allowed })}>
        {allowed ? 'Stop showing pictures from the web' : 'Show pictures from the web'}
      </button>
    </div>
  )
}
