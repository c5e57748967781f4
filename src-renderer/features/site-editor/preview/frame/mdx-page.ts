import type { Expression, Program } from 'estree'
import type { Element, ElementContent, Properties, Root as HastRoot } from 'hast'
import { sanitize } from 'hast-util-sanitize'
import type { Nodes as MdastNodes, Root as MdastRoot } from 'mdast'
import { fromMarkdown } from 'mdast-util-from-markdown'
import { frontmatterFromMarkdown } from 'mdast-util-frontmatter'
import { gfmFromMarkdown } from 'mdast-util-gfm'
import { mdxFromMarkdown } from 'mdast-util-mdx'
import { type Handler, type State, toHast } from 'mdast-util-to-hast'
import { frontmatter } from 'micromark-extension-frontmatter'
import { gfm } from 'micromark-extension-gfm'
import { mdxjs } from 'micromark-extension-mdxjs'
import { find, html } from 'property-information'
import { parse as parseYaml } from 'yaml'
import { PREVIEW_SCHEMA } from './sanitize-schema'
import { importTarget, snippetImports } from './snippet-imports'

// A docs page made safe to show: MDX parsed (micromark and mdast, as MDX's own compiler parses it)
// and never evaluated. JSX elements become elements of the same name, which the frame maps to its
// fixed set of components; attribute values that are expressions are read only when they are
// plain literals (`cols={2}`, `icon={"bolt"}`); every other expression, every import and export,
// and raw HTML's scripts and handlers are dropped (an expression shows as inert text). Snippets the
// page imports from the folder are read by the editor and put in place here. The tree is then
// sanitized (hast-util-sanitize, GitHub's rules plus the components' attributes) before anything
// draws it.

const MAX_SNIPPET_DEPTH = 3

export interface PageInput {
  text: string
  /** The page's file in the folder, for relative imports; null for text that has none. */
  file: string | null
  snippets: Readonly<Record<string, string>>
}

export interface ParsedPage {
  frontMatter: Record<string, unknown>
  tree: HastRoot
  /** Why the page is not valid MDX (it is then shown as plain Markdown), or null. */
  error: string | null
}

const markdownOptions = {
  extensions: [frontmatter(['yaml']), gfm()],
  mdastExtensions: [frontmatterFromMarkdown(['yaml']), gfmFromMarkdown()],
}
const mdxOptions = {
  extensions: [...markdownOptions.extensions, mdxjs()],
  mdastExtensions: [...markdownOptions.mdastExtensions, mdxFromMarkdown()],
}

function parseMarkdown(text: string, mdx: boolean): { tree: MdastRoot; error: string | null } {
  if (!mdx) return { tree: fromMarkdown(text, markdownOptions), error: null }
  try {
    return { tree: fromMarkdown(text, mdxOptions), error: null }
  } catch (error) {
    const found = error as { reason?: string; message?: string; line?: number }
    const line = found.line ? ` (line ${found.line})` : ''
    return { tree: fromMarkdown(text, markdownOptions), error: `${found.reason ?? found.message ?? String(error)}${line}` }
  }
}

type StaticValue = { ok: true; value: unknown } | { ok: false }
const NOT_STATIC: StaticValue = { ok: false }

/** The value of an expression that is only literals (strings, numbers, booleans, arrays and objects of them). */
function literalOf(node: Expression | null | undefined): StaticValue {
  if (!node) return NOT_STATIC
  switch (node.type) {
    case 'Literal':
      return 'regex' in node || 'bigint' in node ? NOT_STATIC : { ok: true, value: node.value }
    case 'TemplateLiteral':
      return node.expressions.length ? NOT_STATIC : { ok: true, value: node.quasis.map((quasi) => quasi.value.cooked ?? '').join('') }
    case 'UnaryExpression': {
      const inner = literalOf(node.argument)
      return node.operator === '-' && inner.ok && typeof inner.value === 'number' ? { ok: true, value: -inner.value } : NOT_STATIC
    }
    case 'ArrayExpression': {
      const values: unknown[] = []
      for (const element of node.elements) {
        const value = element && element.type !== 'SpreadElement' ? literalOf(element) : NOT_STATIC
        if (!value.ok) return NOT_STATIC
        values.push(value.value)
      }
      return { ok: true, value: values }
    }
    case 'ObjectExpression': {
      const value: Record<string, unknown> = {}
      for (const property of node.properties) {
        if (property.type !== 'Property' || property.computed || property.kind !== 'init') return NOT_STATIC
        const key =
          property.key.type === 'Identifier' ? property.key.name : property.key.type === 'Literal' ? String(property.key.value) : null
        const inner = literalOf(property.value as Expression)
        if (key === null || !inner.ok) return NOT_STATIC
        value[key] = inner.value
      }
      return { ok: true, value }
    }
    default:
      return NOT_STATIC
  }
}

/** An expression's program: empty (a comment), one literal, or something never run. */
function programValue(program: Program | undefined): StaticValue | 'empty' {
  if (!program || program.body.length === 0) return 'empty'
  const [statement] = program.body
  if (program.body.length !== 1 || statement?.type !== 'ExpressionStatement') return NOT_STATIC
  return literalOf(statement.expression)
}

const estreeOf = (node: { data?: unknown }) => (node.data as { estree?: Program } | undefined)?.estree

/** What stands where an expression was not run: its source, as text, marked. */
const inertExpression = (source: string): Element => ({
  type: 'element',
  tagName: 'code',
  properties: { className: ['mdx-inert'], title: 'An expression: the preview never runs page code' },
  children: [{ type: 'text', value: `{${source.length > 80 ? `${source.slice(0, 77)}…` : source}}` }],
})

interface Context {
  snippets: Readonly<Record<string, string>>
  bindings: Map<string, string>
  depth: number
}

type JsxNode = Extract<MdastNodes, { type: 'mdxJsxFlowElement' | 'mdxJsxTextElement' }>

function jsxProperties(node: JsxNode, component: boolean): Properties {
  const properties: Properties = {}
  for (const attribute of node.attributes) {
    if (attribute.type !== 'mdxJsxAttribute') continue
    let value: unknown
    if (attribute.value === null || attribute.value === undefined) value = true
    else if (typeof attribute.value === 'string') value = attribute.value
    else {
      const found = programValue(estreeOf(attribute.value))
      if (found === 'empty' || !found.ok) continue
      value = found.value
    }
    if (typeof value === 'object' && value !== null) value = JSON.stringify(value)
    if (typeof value !== 'string' && typeof value !== 'number' && typeof value !== 'boolean') continue
    // Components' names are attributes of their own (a field's name), never the DOM's `name`.
    const name = component
      ? attribute.name === 'name'
        ? 'fieldName'
        : attribute.name === 'id'
          ? 'anchorId'
          : attribute.name
      : find(html, attribute.name).property
    properties[name] = value as string | number | boolean
  }
  return properties
}

function handlers(context: Context): Record<string, Handler> {
  const jsx: Handler = (state: State, node: JsxNode) => {
    const name = node.name
    if (!name) return state.all(node) as ElementContent[]
    const snippet = context.bindings.get(name)
    if (snippet !== undefined) return snippetContent(context, snippet)
    if (name === 'Snippet') {
      const file = node.attributes.find((attribute) => attribute.type === 'mdxJsxAttribute' && attribute.name === 'file')?.value
      if (typeof file === 'string') return snippetContent(context, importTarget(`/snippets/${file}`, null) ?? '')
    }
    const component = /^[A-Z]/.test(name)
    return { type: 'element', tagName: name, properties: jsxProperties(node, component), children: state.all(node) as ElementContent[] }
  }
  const expression: Handler = (_state, node: { value: string; data?: unknown }) => {
    const found = programValue(estreeOf(node))
    if (found === 'empty') return undefined
    if (found.ok && (typeof found.value === 'string' || typeof found.value === 'number'))
      return { type: 'text', value: String(found.value) }
    return inertExpression(node.value.trim())
  }
  return {
    mdxJsxFlowElement: jsx,
    mdxJsxTextElement: jsx,
    mdxFlowExpression: expression,
    mdxTextExpression: expression,
    mdxjsEsm: () => undefined,
    yaml: () => undefined,
    code: (_state, node: Extract<MdastNodes, { type: 'code' }>) => ({
      type: 'element',
      tagName: 'pre',
      properties: { dataLanguage: node.lang ?? '', dataTitle: node.meta ?? '' },
      children: [{ type: 'element', tagName: 'code', properties: {}, children: [{ type: 'text', value: node.value }] }],
    }),
  }
}

function snippetContent(context: Context, file: string): ElementContent[] {
  const text = context.snippets[file]
  if (text === undefined || context.depth >= MAX_SNIPPET_DEPTH) {
    return [
      {
        type: 'element',
        tagName: 'div',
        properties: { className: ['preview-broken'], title: `The snippet ${file} is not in the docs folder` },
        children: [{ type: 'text', value: `Snippet ${file} could not be read` }],
      },
    ]
  }
  return toTree({ text, file, snippets: context.snippets }, context.depth + 1).tree.children as ElementContent[]
}

function toTree(input: PageInput, depth: number): { tree: HastRoot; frontMatter: Record<string, unknown>; error: string | null } {
  const mdx = input.file === null || /\.mdx$/i.test(input.file)
  const { tree, error } = parseMarkdown(input.text, mdx)
  let frontMatterValue: Record<string, unknown> = {}
  const yamlNode = tree.children.find((node) => node.type === 'yaml')
  if (yamlNode && 'value' in yamlNode) {
    try {
      const parsed: unknown = parseYaml(yamlNode.value, { maxAliasCount: 10 })
      if (parsed && typeof parsed === 'object' && !Array.isArray(parsed)) frontMatterValue = parsed as Record<string, unknown>
    } catch {
      // Front matter that does not parse: the page shows without its title; the Problems say why.
    }
  }
  const context: Context = { snippets: input.snippets, bindings: snippetImports(input.text, input.file), depth }
  const hast = toHast(tree, { handlers: handlers(context), allowDangerousHtml: false }) as HastRoot
  return { tree: hast, frontMatter: frontMatterValue, error }
}

/** A page's text as a sanitized tree, with its front matter. */
export function parsePage(input: PageInput): ParsedPage {
  const { tree, frontMatter, error } = toTree(input, 0)
  return { frontMatter, tree: sanitize(tree, PREVIEW_SCHEMA) as HastRoot, error }
}
