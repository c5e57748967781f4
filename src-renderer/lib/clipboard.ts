const CLEAR_AFTER_MS = 60_000

/**
 * Copies a token and clears it from the clipboard after 60 s, but only if the clipboard still
 * holds it and the platform lets us read it back: never wipe something the user copied since.
 */
export async function copySecret(secret: string): Promise<void> {
  await navigator.clipboard.writeText(secret)
  setTimeout(() => {
    navigator.clipboard
      .readText()
      .then((current) => (current === secret ? navigator.clipboard.writeText('') : undefined))
      .catch(() => {
        // Reading the clipboard is not allowed here: leave it as it is.
      })
  }, CLEAR_AFTER_MS)
}

export const copyText = (text: string) => navigator.clipboard.writeText(text)
