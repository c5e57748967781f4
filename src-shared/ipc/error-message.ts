/**
 * The sentence of anything thrown: an Error's message, or the value itself as text (a library, a
 * worker or a rejected promise may throw a string or an object).
 */
export const messageOf = (error: unknown): string => (error instanceof Error ? error.message : String(error))
