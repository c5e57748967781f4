import type { Element, ElementContent, Root as HastRoot } from 'hast'
import { toJsxRuntime } from 'hast-util-to-jsx-runtime'
import { common, createLowlight } from 'lowlight'
import { type ImgHTMLAttributes, type ReactNode, useState } from 'react'
import { Fragment, jsx, jsxs } from 'react/jsx-runtime'
import { webAddress, webHost, webPictureUrl } from '../picture-urls'
import { COMPONENT_VIEWS } from './components'

// The sanitized page tree made ready to draw: code highlighted (lowlight: highlight.js's grammars
// for 37 common languages, bundled, synchronous, giving a tree rather than HTML), pictures pointed
// at the folder's read-only route, and what is broken marked where a reader meets it: a picture
// that is not in the folder, a link to no page. Pictures from the web load only once the operator
// allows them for the document, and then through main (never from the frame itself).

const lowlight = createLowlight(common)
const LANGUAGE_ALIASES: Record<string, string> = {
  sh: 'bash',
  shell: 'bash',
  zsh: 'bash',
  console: 'bash',
  jsx: 'javascript',
  tsx: 'typescript',
  yml: 'yaml',
  py: 'python',
  rb: 'ruby',
  js: 'javascript',
  ts: 'typescript',
  curl: 'bash',
  json5: 'json',
  jsonc: 'json',
}

export interface FolderView {
  filesBase: string | null
  pages: ReadonlySet<string>
  files: ReadonlySet<string>
  /** The operator allowed pictures from the web for this document: they come through main. */
  webPictures: boolean
}

export interface Marked {
  tree: HastRoot
  /** Each broken thing on the page, in order: what a click on its mark says. */
  problems: string[]
  /** The pictures from the web the page shows (loaded through main once allowed, else not at all). */
  webPictures: string[]
}

const EXTERNAL = /^[a-z][a-z0-9+.-]*:/i

/** A path of the folder a page points at (relative to the page's file, or from the folder's top). */
export function folderPath(target: string, fromFile: string | null): string | null {
  const bare = target.split('#')[0]!.split('?')[0]!
  if (!bare) return ''
  const parts = bare.startsWith('/') ? [] : (fromFile ?? '').split('/').slice(0, -1)
  for (const part of bare.split('/')) {
    if (part === '' || part === '.') continue
    if (part === '..') {
      if (!parts.length) return null
      parts.pop()
    } else parts.push(part)
  }
  return parts.join('/')
}

const decode = (text: string) => {
  try {
    return decodeURIComponent(text)
  } catch {
    return text
  }
}

function brokenMark(label: string, problem: string, index: number): Element {
  return {
    type: 'element',
    tagName: 'button',
    properties: { type: 'button', className: ['preview-broken'], dataProblem: String(index), title: problem },
    children: [{ type: 'text', value: label }],
  }
}

/** Marks the page's pictures and links against the folder, and highlights its code. */
export function markPage(tree: HastRoot, file: string | null, folder: FolderView): Marked {
  const problems: string[] = []
  const webPictures: string[] = []
  const where = file ?? 'this page'
  const visit = (node: HastRoot | Element): void => {
    node.children = node.children.flatMap((child): ElementContent[] => {
      if (child.type !== 'element') return [child as ElementContent]
      if (child.tagName === 'img' || child.tagName === 'video' || child.tagName === 'source') {
        const replaced = markPicture(child, file, folder, { problems, webPictures, where })
        if (replaced !== child) return [replaced]
      } else if (child.tagName === 'a' || (child.tagName === 'Card' && typeof child.properties.href === 'string')) {
        markLink(child, file, folder, problems, where)
      } else if (child.tagName === 'Card' && typeof child.properties.img === 'string') {
        const path = folderPath(child.properties.img, file)
        child.properties.img = path && folder.files.has(decode(path)) && folder.filesBase ? `${folder.filesBase}${path}` : undefined
      } else if (child.tagName === 'pre') {
        highlight(child)
        return [child]
      }
      visit(child)
      return [child]
    })
  }
  visit(tree)
  return { tree, problems, webPictures }
}

interface Found {
  problems: string[]
  webPictures: string[]
  where: string
}

function markPicture(node: Element, file: string | null, folder: FolderView, { problems, webPictures, where }: Found): Element {
  const src = typeof node.properties.src === 'string' ? node.properties.src : ''
  if (!src) return node
  if (EXTERNAL.test(src) || src.startsWith('//')) {
    const address = node.tagName === 'img' ? webAddress(src) : null
    if (address) webPictures.push(address)
    if (address && folder.webPictures && folder.filesBase) {
      node.properties.src = webPictureUrl(folder.filesBase, address)
      node.properties.dataWeb = address
      return node
    }
    const what = node.tagName === 'img' ? 'Picture' : 'Video'
    return {
      type: 'element',
      tagName: 'span',
      properties: { className: ['preview-web-image'], title: src },
      children: [{ type: 'text', value: `${what} from the web (${webHost(src)}): not loaded in the preview` }],
    }
  }
  const path = folderPath(src, file)
  if (path !== null && folder.files.has(decode(path)) && folder.filesBase) {
    node.properties.src = `${folder.filesBase}${path}`
    return node
  }
  problems.push(`${where} shows the picture ${src}, which is not in the docs folder`)
  return brokenMark(`Missing picture: ${src}`, problems.at(-1)!, problems.length - 1)
}

function markLink(node: Element, file: string | null, folder: FolderView, problems: string[], where: string) {
  const href = typeof node.properties.href === 'string' ? node.properties.href : ''
  if (!href || href.startsWith('#') || EXTERNAL.test(href) || href.startsWith('//')) {
    if (href && !href.startsWith('#')) node.properties.dataExternal = 'true'
    return
  }
  const path = folderPath(href, file)
  const key =
    path === null
      ? null
      : decode(path)
          .replace(/\.mdx?$/i, '')
          .replace(/\/$/, '')
  if (key !== null && (folder.pages.has(key) || folder.pages.has(`${key}/index`) || folder.files.has(decode(path!)))) {
    node.properties.dataPage = folder.pages.has(key) ? key : `${key}/index`
    return
  }
  problems.push(`${where} links to ${href}, which is no page of the docs folder`)
  node.properties.dataProblem = String(problems.length - 1)
  node.properties.className = ['preview-broken-link']
  node.properties.title = problems.at(-1)
}

function highlight(pre: Element) {
  const code = pre.children.find((child): child is Element => child.type === 'element' && child.tagName === 'code')
  const text = code?.children.map((child) => (child.type === 'text' ? child.value : '')).join('') ?? ''
  const raw = String(pre.properties.dataLanguage ?? '').toLowerCase()
  const language = LANGUAGE_ALIASES[raw] ?? raw
  if (!code || !language || !lowlight.registered(language)) return
  code.children = lowlight.highlight(language, text).children as ElementContent[]
  code.properties.className = ['hljs']
}

function CodeBlock(props: { children?: ReactNode; 'data-language'?: string; 'data-title'?: string }) {
  const title = props['data-title'] || props['data-language'] || ''
  return (
    <div className="code-block">
      {title ? <div className="code-block__title">{title}</div> : null}
      <pre tabIndex={0}>{props.children}</pre>
    </div>
  )
}

/** A picture; one from the web that main would not fetch (a private address, not a picture, too large) says so in its place. */
function Picture(props: ImgHTMLAttributes<HTMLImageElement> & { 'data-web'?: string }) {
  const [failed, setFailed] = useState(false)
  const address = props['data-web']
  if (address && failed)
    return (
      <span className="preview-web-image preview-web-image--refused" title={address}>
        Picture from the web ({webHost(address)}) could not be loaded: the preview shows only pictures, and never from this computer or a
        private network.
      </span>
    )
  return <img {...props} onError={address ? () => setFailed(true) : undefined} />
}

/** The marked tree as React elements: components by name, everything else as the element it is. */
export const renderTree = (tree: HastRoot) =>
  toJsxRuntime(tree, {
    Fragment,
    jsx,
    jsxs,
    components: { ...COMPONENT_VIEWS, pre: CodeBlock, img: Picture } as never,
    ignoreInvalidStyle: true,
    passKeys: true,
  })
