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
