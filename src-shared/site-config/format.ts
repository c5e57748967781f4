/**
 * The file as the app writes it: 2-space JSON, a final newline, keys in the order they came.
 * Text written by this function and parsed back serializes to the same bytes, which is what lets
 * "open, change nothing, save" leave a file untouched. (JavaScript objects list integer-like keys
 * such as "10" first, so the first save of a hand-written file may move those; none of the keys of
 * docs/site-json.md looks like that.)
 */
export function serializeSiteConfig(config: unknown): string {
  const json = JSON.stringify(config, null, 2) as string | undefined
  // JSON.stringify answers undefined for undefined or a function: refuse rather than write "undefined".
  if (json === undefined) throw new TypeError('A site.json file must hold a JSON value.')
  return `${json}\n`
}

/** What File › New starts from: the smallest file that validates without a warning. */
export const SITE_CONFIG_TEMPLATE = serializeSiteConfig({
  name: 'My docs',
  navigation: [{ group: 'Get started', pages: ['introduction'] }],
})

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
