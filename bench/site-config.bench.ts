import { validateMintConfig as mintlifyValidateMintConfig } from '@mintlify/validation'
import { bench, describe } from 'vitest'
import { validateMintConfig } from '../src-shared/site-config/mint-validate'
import { generateLargeMintConfig } from '../test/fixtures/site-config/large-mint-config'

const config = generateLargeMintConfig()

// A comparison only means something if both validators accept the file and so do all their work.
const ours = validateMintConfig(config)
if (!ours.valid || ours.warnings.length > 0) throw new Error(`The benchmark config is not clean: ${JSON.stringify(ours)}`)
const theirs = mintlifyValidateMintConfig(config)
if (!theirs.success) throw new Error(`The benchmark config fails Mintlify's validator: ${theirs.error.message}`)

describe('validate a 6,000-page site.json (300 groups × 20 pages, 50 anchors, 20 tabs)', () => {
  bench('embed-console validateMintConfig', () => {
    validateMintConfig(config)
  })
  bench('@mintlify/validation validateMintConfig', () => {
    mintlifyValidateMintConfig(config)
  })
})

// The editor validates on every keystroke, usually of a file with a problem or two in it.
const mistyped = generateLargeMintConfig()
mistyped.navigation[150]?.pages.push(42 as unknown as string)
Object.assign(mistyped.anchors?.[25] ?? {}, { colour: '#0D9373' })

describe('validate the same site.json with one error and one unknown key', () => {
  bench('embed-console validateMintConfig', () => {
    validateMintConfig(mistyped)
  })
})
