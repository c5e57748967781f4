import { fileURLToPath } from 'node:url'
import { ESLint } from 'eslint'
import { beforeAll, describe, expect, it } from 'vitest'

// The real eslint.config.js, run through ESLint's Node API on small files placed (virtually) in
// each part of the tree: a boundary holds only if the linter flags a file that crosses it.
const root = fileURLToPath(new URL('../../..', import.meta.url))

let eslint: ESLint
beforeAll(() => {
  eslint = new ESLint({ cwd: root })
})

/** The messages of `no-restricted-imports` for one import placed at `filePath`. */
async function restrictedImports(filePath: string, specifier: string): Promise<string[]> {
  const code = `import { thing } from '${specifier}'\n\nexport const used = thing\n`
  const [result] = await eslint.lintText(code, { filePath: `${root}/${filePath}` })
  return result!.messages.filter((message) => message.ruleId === 'no-restricted-imports').map((message) => message.message)
}

describe('import boundaries (eslint.config.js)', () => {
  it.each([
    ['src-renderer/features/groups/Fixture.tsx', 'node:fs', /no Node/],
    ['src-renderer/features/profiles/Fixture.tsx', 'electron', /no Electron/],
    ['src-renderer/features/site-editor/state/fixture.ts', 'node:child_process', /no Node/],
    ['src-renderer/features/activity/Fixture.tsx', 'fs/promises', /no Node/],
    ['src-renderer/features/groups/Fixture.tsx', '../../../src-main/app-services', /never imports main/],
    ['src-renderer/features/groups/Fixture.tsx', '../profiles/ProfileForm', /Features do not import each other/],
    [
      'src-renderer/features/site-editor/form/Fixture.tsx',
      '../../../features/activity/ActivityScreen',
      /Features do not import each other/,
    ],
    ['src-renderer/lib/fixture.ts', 'electron', /no Electron/],
    ['src-renderer/app/Fixture.tsx', 'path', /no Node/],
    ['src-shared/ipc/fixture.ts', 'node:fs', /pure TypeScript/],
    ['src-shared/ipc/fixture.ts', 'react', /pure TypeScript/],
    ['src-main/groups/fixture.ts', 'electron', /Only the Electron shell/],
    ['src-main/groups/fixture.ts', '../../src-renderer/lib/api', /Main never imports the renderer/],
  ])('flags %s importing %s', async (filePath, specifier, message) => {
    const messages = await restrictedImports(filePath, specifier)
    expect(messages).toEqual([expect.stringMatching(message)])
  })

  it.each([
    ['src-renderer/features/groups/Fixture.tsx', '../../../src-shared/ipc/contract'],
    ['src-renderer/features/groups/Fixture.tsx', './ResultPanel'],
    ['src-renderer/features/groups/Fixture.tsx', 'react'],
    ['src-main/shell/fixture.ts', 'electron'],
    ['src-main/index.ts', 'electron'],
    ['src-main/groups/fixture.ts', 'node:fs'],
  ])('lets %s import %s', async (filePath, specifier) => {
    expect(await restrictedImports(filePath, specifier)).toEqual([])
  })
})
