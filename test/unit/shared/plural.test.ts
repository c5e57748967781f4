import { describe, expect, it } from 'vitest'
import { mintlifyFeaturesOf } from '../../../src-shared/site-config/rule-suggestion'
import { plural } from '../../../src-shared/text/plural'

describe('plural: a count with its noun, as every sentence writes it', () => {
  it('writes the singular for exactly one', () => {
    expect(plural(1, 'group')).toBe('1 group')
    expect(plural(1, 'Mintlify setting')).toBe('1 Mintlify setting')
  })

  it('adds an s for none and for more than one', () => {
    expect(plural(0, 'error')).toBe('0 errors')
    expect(plural(2, 'error')).toBe('2 errors')
    expect(plural(1000, 'valid row')).toBe('1000 valid rows')
  })

  it('is the count the editor and the CLI print: a Mintlify file with nested groups', () => {
    const group = (pages: unknown[]) => ({ group: 'Guides', pages })
    expect(mintlifyFeaturesOf({ navigation: [group([group(['a'])])] })).toEqual(['1 nested group'])
    expect(mintlifyFeaturesOf({ navigation: [group([group(['a']), group(['b'])])] })).toEqual(['2 nested groups'])
  })
})
