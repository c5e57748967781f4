/** A docs.json and its $ref file nav.json as one save writes them: both name `marker`, padded to `padding` characters each. */
export const saveSetOf = (marker: string, padding: number) => ({
  docs: `${JSON.stringify({ name: marker, navigation: { $ref: 'nav.json' }, padding: marker.repeat(padding) })}\n`,
  nav: `${JSON.stringify({ marker, pages: ['index'], padding: marker.repeat(padding) })}\n`,
})
