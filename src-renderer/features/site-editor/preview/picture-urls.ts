// Where the preview's frame finds a picture from the web once the operator allowed them for the
// document: on the folder's own read-only route (so the frame's policy allows nothing more),
// which main answers by fetching the picture itself, never from a private address.

/** The picture's web address, or null for anything but http(s) (`//host/x.png` is https). */
export function webAddress(src: string): string | null {
  const absolute = src.startsWith('//') ? `https:${src}` : src
  if (!/^https?:\/\//i.test(absolute) || !URL.canParse(absolute)) return null
  return new URL(absolute).href
}

/** The host a picture would come from, as the notice names it. */
export const webHost = (src: string): string => {
  const address = webAddress(src)
  return address ? new URL(address).host : src
}

/** `…/preview-files/<token>/?web=<address>`: the route main answers with the fetched picture. */
export const webPictureUrl = (filesBase: string, address: string) => `${filesBase}?web=${encodeURIComponent(address)}`
