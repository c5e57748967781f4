/** Counts as the operator's locale writes them: 100,000 or 100 000. */
export const countFormat = new Intl.NumberFormat()
