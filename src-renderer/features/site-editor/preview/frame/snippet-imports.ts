// Which snippets a page imports, read by the editor (to fetch them) and by the frame (to put them in place).

/** The path a page's `import … from "…"` names, relative to the folder, or null when it is no file of it. */
export function importTarget(source: string, fromFile: string | null): string | null {
  if (!/\.mdx?$/i.test(source) || source.includes('\0')) return null
  const base = source.startsWith('/') ? [] : (fromFile ?? '').split('/').slice(0, -1)
  const parts = [...base]
  for (const part of source.split('/')) {
    if (part === '' || part === '.') continue
    if (part === '..') {
      if (!parts.length) return null
      parts.pop()
    } else parts.push(part)
  }
  return parts.length ? parts.join('/') : null
}

/** Default imports of Markdown files: `import Intro from '/snippets/intro.mdx'`. */
export function snippetImports(text: string, fromFile: string | null): Map<string, string> {
  const found = new Map<string, string>()
  for (const match of text.matchAll(/^import\s+([A-Za-z_$][\w$]*)\s+from\s+['"]([^'"\n]+)['"]/gm)) {
    const target = importTarget(match[2]!, fromFile)
    if (target) found.set(match[1]!, target)
  }
  return found
}
