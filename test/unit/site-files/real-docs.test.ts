import { appendFile, cp, writeFile } from 'node:fs/promises'
import { join } from 'node:path'
import { describe, expect, it } from 'vitest'
import type { CliIo } from '../../../src-main/cli/usage'
import { runValidate } from '../../../src-main/cli/validate-command'
import { tempDir } from './helpers'

// Skeletons of real docs folders (test/fixtures/real-docs, each README names its repository and
// commit), each showing a case where the folder check had warned of something Mintlify serves
// fine, next to a fault of the same kind that it must still name.
const REAL_DOCS = join(import.meta.dirname, '../../fixtures/real-docs')

interface Problem {
  path: string
  message: string
  file?: string
  line?: number
}

async function warningsOf(folder: string): Promise<Problem[]> {
  const root = await tempDir('ec-real-docs-')
  await cp(folder, root, { recursive: true })
  return validate(root)
}

async function validate(root: string): Promise<Problem[]> {
  const out: string[] = []
  const io: CliIo = { stdout: (text) => out.push(text), stderr: () => {}, stdin: async () => '', env: {} }
  await runValidate(['--json', join(root, 'docs.json')], io)
  const [report] = JSON.parse(out[0]!) as { errors: Problem[]; warnings: Problem[] }[]
  expect(report!.errors).toEqual([])
  return report!.warnings.map(({ file, line, message }) => ({
    path: '$',
    file: file?.slice(file.lastIndexOf(root) + root.length + 1),
    line,
    message,
  }))
}

describe('anchors a page gets from the snippets it imports (dubinc/docs)', () => {
  it('are known: only the anchor no heading or field has is warned of', async () => {
    expect(await warningsOf(join(REAL_DOCS, 'dub-docs'))).toEqual([
      {
        path: '$',
        file: 'docs/sdks/client-side/variants.mdx',
        line: 8,
        message:
          'links to /docs/sdks/client-side/introduction#custom-cookie-window, but that page has no heading with the anchor #custom-cookie-window',
      },
    ])
  })

  it('a snippet that imports another gives its anchors too; one that is not there, or imports its importer, gives none', async () => {
    const root = await tempDir('ec-real-docs-')
    await cp(join(REAL_DOCS, 'dub-docs'), root, { recursive: true })
    await writeFile(
      join(root, 'snippets/dub-analytics-params.mdx'),
      'import Cookie from "./cookie-options.mdx";\nimport Gone from "/snippets/gone.mdx";\n\n<Cookie />\n',
    )
    await writeFile(
      join(root, 'snippets/cookie-options.mdx'),
      'import Params from "/snippets/dub-analytics-params.mdx";\n\n## Custom cookie window\n\n<ParamField body="expiresInDays" type="integer" />\n',
    )
    const messages = (await validate(root)).map((problem) => problem.message)
    expect(messages).toEqual([
      'links to /docs/sdks/client-side/introduction#param-data-attribution-model, but that page has no heading with the anchor #param-data-attribution-model',
    ])
  })
})

describe('files Mintlify serves itself (firecrawl/firecrawl-docs)', () => {
  it('a link to /llms.txt is good; one to a file that is neither served nor in the folder is not', async () => {
    expect(await warningsOf(join(REAL_DOCS, 'firecrawl-docs'))).toEqual([])
    const root = await tempDir('ec-real-docs-')
    await cp(join(REAL_DOCS, 'firecrawl-docs'), root, { recursive: true })
    await appendFile(
      join(root, 'api-reference/v2-introduction.mdx'),
      '\nSee [the index](/llms-index.txt) and [the full text](/llms-full.txt).\n',
    )
    expect(await validate(root)).toEqual([
      {
        path: '$',
        file: 'api-reference/v2-introduction.mdx',
        line: 14,
        message: 'links to /llms-index.txt, which is not in the docs folder',
      },
    ])
  })
})

describe('a fenced block holding a line that opens another fence (bazel-contrib/bazel-docs, navigation by $ref)', () => {
  it('ends at the bare fence: the custom heading id after it is read, the page is valid MDX', async () => {
    expect(await warningsOf(join(REAL_DOCS, 'bazel-docs'))).toEqual([])
  })

  it('a custom id inside a fenced block is code, so a link to it is still warned of', async () => {
    const root = await tempDir('ec-real-docs-')
    await cp(join(REAL_DOCS, 'bazel-docs'), root, { recursive: true })
    await appendFile(join(root, 'contribute/docs-style-guide.mdx'), '\n```md\n## In code {#in-code}\n```\n\nSee [it](#in-code).\n')
    expect(await validate(root)).toEqual([
      {
        path: '$',
        file: 'contribute/docs-style-guide.mdx',
        line: 28,
        message: 'links to #in-code, but this page has no heading with that anchor',
      },
    ])
  })
})
