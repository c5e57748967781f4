import { describe, expect, it } from 'vitest'
import { mintConfigJsonSchema } from '../../../src-shared/site-config/json-schema'
import { HEX_COLOR_MESSAGE } from '../../../src-shared/site-config/mint-schema'

interface JsonSchemaNode {
  description?: string
  default?: unknown
  properties?: Record<string, JsonSchemaNode>
  required?: string[]
  items?: JsonSchemaNode
  anyOf?: JsonSchemaNode[]
  additionalProperties?: unknown
  patternErrorMessage?: string
}

const root = mintConfigJsonSchema as JsonSchemaNode

/** Every property of every object in the JSON Schema, as [dotted path, node]. */
function properties(node: JsonSchemaNode, path = ''): Array<[string, JsonSchemaNode]> {
  const found: Array<[string, JsonSchemaNode]> = []
  for (const [key, child] of Object.entries(node.properties ?? {})) {
    found.push([`${path}${key}`, child], ...properties(child, `${path}${key}.`))
  }
  for (const option of node.anyOf ?? []) found.push(...properties(option, path))
  if (node.items) found.push(...properties(node.items, `${path}[].`))
  return found
}

describe('site.json JSON Schema (for Monaco)', () => {
  it('is draft-07 with the two required top-level properties', () => {
    expect(mintConfigJsonSchema.$schema).toBe('http://json-schema.org/draft-07/schema#')
    expect(root.required).toEqual(['name', 'navigation'])
  })

  it('describes every property, at every depth, for hovers and completions', () => {
    const all = properties(root)
    expect(all.length).toBeGreaterThan(50)
    for (const [path, node] of all) expect(node.description, path).toBeTruthy()
  })

  it('carries the spec’s defaults', () => {
    const defaults = Object.fromEntries(
      properties(root).flatMap(([path, node]) => (node.default === undefined ? [] : [[path, node.default]])),
    )
    expect(defaults).toEqual({
      'logo.href': '/',
      'topbarCtaButton.type': 'link',
      'anchors.[].isDefaultHidden': false,
      'anchors.[].iconType': 'duotone',
      'topAnchor.name': 'Documentation',
      'topAnchor.icon': 'book-open',
      'topAnchor.iconType': 'duotone',
      'api.playground.mode': 'show',
      'feedback.suggestEdit': false,
      'feedback.raiseIssue': false,
      'modeToggle.isHidden': false,
    })
  })

  it('allows unknown keys except in footerSocials, and explains hex colours', () => {
    expect(root.additionalProperties).toEqual({})
    expect(root.properties?.footerSocials?.additionalProperties).toBe(false)
    expect(root.properties?.colors?.properties?.primary?.patternErrorMessage).toBe(HEX_COLOR_MESSAGE)
  })
})
