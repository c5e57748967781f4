const IDENTIFIER = /^[A-Za-z_$][\w$]*$/

/**
 * One notation for every problem: `$` for the root, `.key` for identifier keys, `[0]` for list
 * items and `["weird key"]` for any other key, so `navigation[0].pages[1]`, `colors.primary`,
 * `footerSocials["hacker-news"]`. The form builds its field ids with it too.
 */
export function formatProblemPath(path: readonly PropertyKey[]): string {
  if (path.length === 0) return '$'
  let text = ''
  for (const segment of path) {
    if (typeof segment === 'number') text += `[${segment}]`
    // A key named "$" alone would read as the root.
    else if (typeof segment === 'string' && IDENTIFIER.test(segment) && segment !== '$') text += text === '' ? segment : `.${segment}`
    else text += `[${JSON.stringify(String(segment))}]`
  }
  return text
}

/**
 * Reads a problem path back into segments (the inverse of formatProblemPath): `$` is the root,
 * `.key` and `["key"]` are keys, `[3]` is an index.
 */
export function parseProblemPath(text: string): (string | number)[] {
  if (text === '$') return []
  const segments: (string | number)[] = []
  const token = /(?:^|\.)([A-Za-z_$][\w$]*)|\[(\d+)\]|\[("(?:[^"\\]|\\.)*")\]/y
  while (token.lastIndex < text.length) {
    const at = token.lastIndex
    const match = token.exec(text)
    if (!match) throw new Error(`Not a problem path: ${text} (at ${at})`)
    if (match[1] !== undefined) segments.push(match[1])
    else if (match[2] !== undefined) segments.push(Number(match[2]))
    else segments.push(JSON.parse(match[3]!) as string)
  }
  return segments
}
