import { readFileSync } from 'node:fs'
import { upgradeToDocsConfig, validateMintConfig } from '@mintlify/validation'
const text = readFileSync(process.argv[2], 'utf8')
const docs = upgradeToDocsConfig(validateMintConfig(JSON.parse(text)).data, { shouldUpgradeTheme: true })
process.stdout.write(JSON.stringify(docs, null, 2))
