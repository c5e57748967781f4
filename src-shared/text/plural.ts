/** A count with its noun, as every sentence of the app writes it: "1 error", "2 errors", "0 errors". */
export function plural(count: number, noun: string): string {
  return `${count} ${noun}${count === 1 ? '' : 's'}`
}
