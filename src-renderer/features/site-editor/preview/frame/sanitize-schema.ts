import { defaultSchema, type Schema } from 'hast-util-sanitize'

/** The components a Mintlify page commonly uses: each is drawn by the frame's own code (components.tsx). */
export const COMPONENTS = [
  'Note',
  'Tip',
  'Info',
  'Warning',
  'Check',
  'Danger',
  'Callout',
  'Card',
  'CardGroup',
  'Columns',
  'Column',
  'Steps',
  'Step',
  'Tabs',
  'Tab',
  'Accordion',
  'AccordionGroup',
  'CodeGroup',
  'RequestExample',
  'ResponseExample',
  'Frame',
  'Icon',
  'ParamField',
  'ResponseField',
  'Expandable',
  'Tooltip',
  'Update',
  'Badge',
] as const

/** What the components read: text, icons, colours, links (checked like any href). */
const COMPONENT_ATTRIBUTES = [
  'title',
  'icon',
  'iconType',
  'color',
  'href',
  'cols',
  'horizontal',
  'img',
  'description',
  'defaultOpen',
  'fieldName',
  'anchorId',
  'type',
  'required',
  'default',
  'deprecated',
  'path',
  'query',
  'body',
  'header',
  'tip',
  'label',
  'caption',
  'size',
  'placeholder',
  'cta',
  'arrow',
  'post',
  'initialValue',
]

/**
 * GitHub's rules (hast-util-sanitize's default: no script, no style, no handler, no `javascript:`)
 * plus the components, videos from the folder, and the code blocks' language and title.
 */
export const PREVIEW_SCHEMA: Schema = {
  ...defaultSchema,
  tagNames: [...(defaultSchema.tagNames ?? []), ...COMPONENTS, 'video', 'source', 'figure', 'figcaption', 'mark', 'u'],
  strip: [...(defaultSchema.strip ?? []), 'style', 'iframe', 'object', 'embed', 'template', 'noscript'],
  attributes: {
    ...defaultSchema.attributes,
    ...Object.fromEntries(COMPONENTS.map((name) => [name, COMPONENT_ATTRIBUTES])),
    pre: ['dataLanguage', 'dataTitle'],
    img: [...(defaultSchema.attributes?.img ?? []), 'width', 'height', 'title'],
    video: ['src', 'controls', 'autoPlay', 'loop', 'muted', 'playsInline', 'poster', 'width', 'height'],
    source: ['src', 'type'],
    // The first definition of a property is the one checked: the code block's languages and the inert mark together.
    code: [['className', /^language-./, 'mdx-inert'], 'title'],
    div: [['className', 'preview-broken'], 'title', ...(defaultSchema.attributes?.div ?? [])],
  },
  protocols: {
    ...defaultSchema.protocols,
    href: ['http', 'https', 'mailto'],
    src: ['http', 'https'],
    poster: ['http', 'https'],
    img: ['http', 'https'],
  },
}
