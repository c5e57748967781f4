import { LARGE_TEXT_LENGTH, loadDocument, settleTypedText, typeText } from '../../src-renderer/features/site-editor/state/editor-store'
import type { TextChange } from '../../src-shared/site-config/json-text'

// Keys typed into a large docs.json in the raw view, through the editor store as the view types them.

export const applied = (text: string, { offset, removed, inserted }: TextChange) =>
  text.slice(0, offset) + inserted + text.slice(offset + removed)

/** A docs.json past LARGE_TEXT_LENGTH whose first group is named `group`. */
export const largeDocsJson = (group: string) =>
  JSON.stringify(
    {
      name: 'Acme',
      navigation: [
        { group, pages: ['a'] },
        { group: 'Other', pages: ['b'] },
      ],
      'x-padding': 'x'.repeat(LARGE_TEXT_LENGTH),
    },
    null,
    2,
  )

export const openDocsJson = (text: string) =>
  loadDocument({ documentId: 'file-test', path: '/docs/docs.json', baselineText: text, version: null, byteOrderMark: false, rules: 'spec' })

/** One key, as the raw view reports it, taken in at once; answers the text after it. */
export function typeKey(text: string, change: TextChange): string {
  const next = applied(text, change)
  typeText(next, [change])
  settleTypedText()
  return next
}
