/*
 * What the benchmarks report: medians of runs taken in turns (interleaved, so a slow moment of
 * the machine falls on every case alike), with the min and max beside them.
 */

export const median = (values: number[]): number => {
  const sorted = [...values].sort((a, b) => a - b)
  const middle = Math.floor(sorted.length / 2)
  return sorted.length % 2 ? sorted[middle]! : (sorted[middle - 1]! + sorted[middle]!) / 2
}

export const percentile = (values: number[], p: number): number => {
  const sorted = [...values].sort((a, b) => a - b)
  return sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))]!
}

export interface Spread {
  median: number
  min: number
  max: number
}

export const spread = (values: number[]): Spread => ({ median: median(values), min: Math.min(...values), max: Math.max(...values) })

/** Runs every case once per round, in turn, and returns each case's results in round order. */
export async function interleave<K extends string, T>(rounds: number, cases: Record<K, () => Promise<T>>): Promise<Record<K, T[]>> {
  const results = Object.fromEntries(Object.keys(cases).map((name) => [name, [] as T[]])) as Record<K, T[]>
  for (let round = 0; round < rounds; round++) {
    for (const name of Object.keys(cases) as K[]) results[name].push(await cases[name]())
  }
  return results
}

const fixed = (value: number, unit: string) =>
  `${value < 10 ? value.toFixed(2) : value < 100 ? value.toFixed(1) : Math.round(value)} ${unit}`

/** "0.42 ms (min 0.40, max 0.51)" */
export const describeSpread = ({ median: mid, min, max }: Spread, unit: string) =>
  `${fixed(mid, unit)} (min ${fixed(min, '').trim()}, max ${fixed(max, '').trim()})`

/** Prints a titled table of rows (what, measured, target) to the bench output. */
export function report(title: string, rows: Array<[what: string, measured: string, target: string]>): void {
  const lines = [``, `## ${title}`, ``, `| what | measured | target |`, `|---|---|---|`, ...rows.map((row) => `| ${row.join(' | ')} |`), ``]
  process.stdout.write(`${lines.join('\n')}\n`)
}
