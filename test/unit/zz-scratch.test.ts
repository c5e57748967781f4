import { readdirSync, readFileSync } from 'node:fs'
import { join } from 'node:path'
import { test } from 'vitest'
import { validateMintConfig } from '@mintlify/validation'
import { checkSiteConfigText } from '../../src-shared/site-config/validate'
const dir = '/work/shared/realworld/mint'
test('x', () => {
  const files = readdirSync(dir)
  const counts = { spec: 0, mintlify: 0, mintOwn: 0, mintOwnButNotOurs: 0 }
  const errs: Record<string, number> = {}
  const infos: Record<string, number> = {}; const warns: Record<string, number> = {}
  for (const f of files) {
    const text = readFileSync(join(dir, f), 'utf8')
    const s = checkSiteConfigText(text, 'spec'); const m = checkSiteConfigText(text, 'mintlify')
    if (s.valid) counts.spec++
    if (m.valid) counts.mintlify++
    const own = validateMintConfig(JSON.parse(text.replace(/^\uFEFF/, '')))
    if (own.success) counts.mintOwn++
    if (own.success && !m.valid) { counts.mintOwnButNotOurs++; console.log(f, JSON.stringify(m.errors.slice(0,3))) }
    for (const e of m.errors) { const k = e.path.replace(/\[\d+\]/g,'[]')+': '+e.message.slice(0,60); errs[k]=(errs[k]??0)+1 }
    for (const e of s.info) { const k = e.path.replace(/\[\d+\]/g,'[]'); infos[k]=(infos[k]??0)+1 }
    for (const e of s.warnings) { const k = e.path.replace(/\[\d+\]/g,'[]'); warns[k]=(warns[k]??0)+1 }
  }
  console.log(counts)
  console.log('mintlify errors', Object.entries(errs).sort((a,b)=>b[1]-a[1]).slice(0,30))
  console.log('spec warnings', Object.entries(warns).sort((a,b)=>b[1]-a[1]).slice(0,40), Object.values(warns).reduce((a,b)=>a+b,0))
  console.log('spec info total', Object.values(infos).reduce((a,b)=>a+b,0))
})
