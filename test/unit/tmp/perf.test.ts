import { readFileSync } from 'node:fs'
import { it } from 'vitest'
import { checkDocsConfig } from '../../../src-shared/site-config/docs-validate'
import { DocsConfigSchema } from '../../../src-shared/site-config/docs-schema'
import { hasRefs } from '../../../src-shared/site-config/refs'
import { docsLookup, docsProblems } from '../../../src-shared/site-config/docs-files'
import { findDuplicateKeys } from '../../../src-shared/site-config/duplicate-keys'
import { applyValueChanges } from '../../../src-shared/site-config/text-edits'
it('perf', () => {
  const text = readFileSync('/work/shared/realworld-docsjson/files/crewAIInc__crewAI__docs_docs.json', 'utf8')
  const v = JSON.parse(text)
  const t = (name: string, f: () => unknown) => { const xs: number[] = []; for (let i = 0; i < 15; i++) { const t0 = performance.now(); f(); xs.push(performance.now() - t0) } xs.sort((a, b) => a - b); console.log(name, xs[7]!.toFixed(1), xs[0]!.toFixed(1)) }
  t('JSON.parse', () => JSON.parse(text))
  t('zod', () => DocsConfigSchema.safeParse(v, { reportInput: true }))
  t('checkDocsConfig', () => checkDocsConfig(v))
  t('hasRefs', () => hasRefs(v))
  const lookup = docsLookup({ root: '/x', pages: [], files: [], truncated: false })
  t('docsProblems', () => docsProblems(v, lookup))
  t('dupes', () => findDuplicateKeys(text))
  t('edit colors.primary', () => applyValueChanges(text, [{ kind: 'set', path: ['colors', 'primary'], value: '#EB6659' }]))
})
