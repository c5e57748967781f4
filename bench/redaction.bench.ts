import { randomBytes } from 'node:crypto'
import { resolve } from 'node:path'
import { afterAll, bench, describe } from 'vitest'
import { createRedactor, type Redactor, SecretMatcher } from '../src-main/user-api/redact'
import { describeSpread, interleave, median, report, spread } from './lib/stats'

// What redacting a call's record costs when the app knows every token it keeps (the vault's
// profiles and groups: every stored field is cleared of all of them), at 2, 1,000 and 10,000
// known tokens, against the 2 a call knows of its own; what knowing one more costs; and reading
// 10,000 into a matcher at the first redaction of a process. BENCH_APP_DIR names a checkout of
// other code (its src-main/user-api/redact.ts): its redactor given the same record with the same
// secrets, a new list each call as a new group makes it, joins the interleaved rounds, and so does
// its matcher searching text of a token's own alphabet.

const ROUNDS = 5
const CALLS = 200
/** Its patterns take long to build: fewer calls a round. */
const OTHER_CALLS = 50
const otherDir = process.env.BENCH_APP_DIR ? resolve(process.env.BENCH_APP_DIR) : undefined
const other = otherDir
  ? ((await import(`${otherDir}/src-main/user-api/redact.ts`)) as {
      createRedactor: (secrets: readonly string[]) => Redactor
      SecretMatcher?: new () => Pick<SecretMatcher, 'add' | 'findIn'>
    })
  : undefined

const token = () => randomBytes(32).toString('hex')
const apiToken = token()
const groupToken = token()
/** `matcher` knowing the API token and `count` - 1 group tokens. */
const filled = <T extends Pick<SecretMatcher, 'add'>>(matcher: T, count: number): T => {
  matcher.add(apiToken, 'profile:p:api-token')
  for (let index = 1; index < count; index += 1) matcher.add(token(), `group:p:g${index}:token`)
  return matcher
}
const known = (count: number) => filled(new SecretMatcher(), count)
const sizes = [2, 100, 1_000, 10_000] as const
const matchers = Object.fromEntries(sizes.map((size) => [size, known(size)])) as Record<(typeof sizes)[number], SecretMatcher>
const tokensOf10k = Array.from({ length: 10_000 }, token)

/** A get-or-create's record as the app keeps it: the entry, what was sent and what came back. */
const record = (index: number) => ({
  entry: { id: `id-${index}`, groupId: `group-${index}`, groupName: `Group ${index}`, outcome: 'success', warnings: [] as string[] },
  request: { user_group_id: `group-${index}`, name: `Group ${index}`, properties: { plan: 'pro', seats: 12, region: 'eu-west-1' } },
  response: {
    success: 1,
    new_user_group: true,
    user_group: {
      team_id: 7,
      token: '[redacted]',
      name: `Group ${index}`,
      provided_id: `group-${index}`,
      api_environment_tag: 'Customer',
      properties: { plan: 'pro', seats: 12, region: 'eu-west-1', note: 'x'.repeat(300) },
    },
  },
})

/** Median ms a call of `CALLS`, each with a redactor of its own as the group service builds one. */
const perCall =
  (redactorFor: (index: number) => Redactor, calls = CALLS) =>
  async () => {
    const times: number[] = []
    for (let index = 0; index < calls; index += 1) {
      const started = performance.now()
      redactorFor(index)(record(index))
      times.push(performance.now() - started)
    }
    return median(times)
  }

const cases: Record<string, () => Promise<number>> = Object.fromEntries(
  sizes.map((size) => [`known ${size}`, perCall(() => createRedactor([apiToken, groupToken], () => matchers[size]))]),
)
if (other) {
  cases['other, 2 secrets'] = perCall(() => other.createRedactor([apiToken, groupToken]))
  // The secrets the matcher of 100 knows, as a list: a new group's call has a new list.
  const tokensOf100 = tokensOf10k.slice(0, 98)
  cases['other, 100 secrets'] = perCall(
    (index) => other.createRedactor([apiToken, groupToken, `${index}`.padEnd(8, 'n'), ...tokensOf100]),
    OTHER_CALLS,
  )
}

// A 64-character hex text that is no secret (a new group's token, a request id) searched by a
// matcher knowing 2, 10,000 and 30,000 tokens of the same alphabet: µs a text, timed ten at a time.
const hexSizes = [2, 10_000, 30_000] as const
const perHexText = (matcher: Pick<SecretMatcher, 'findIn'>) => async () => {
  const times: number[] = []
  for (let index = 0; index < CALLS; index += 1) {
    const texts = Array.from({ length: 10 }, token)
    const started = performance.now()
    for (const text of texts) matcher.findIn(text, [])
    times.push(((performance.now() - started) / texts.length) * 1000)
  }
  return median(times)
}
for (const size of hexSizes) {
  cases[`hex ${size}`] = perHexText(size === 30_000 ? known(size) : matchers[size])
  if (other?.SecretMatcher) cases[`other hex ${size}`] = perHexText(filled(new other.SecretMatcher(), size))
}
const runs = await interleave(ROUNDS, cases)

const adds: number[] = []
const loads: number[] = []
const otherLoads: number[] = []
/** A new matcher of `Matcher`'s with 10,000 tokens read into it, and the ms that took. */
const load = <T extends Pick<SecretMatcher, 'add'>>(Matcher: new () => T) => {
  const started = performance.now()
  const matcher = new Matcher()
  for (const secret of tokensOf10k) matcher.add(secret)
  return { matcher, ms: performance.now() - started }
}
for (let round = 0; round < ROUNDS; round += 1) {
  // Each side first in every other round: neither always reads after the other's garbage.
  const OtherMatcher = other?.SecretMatcher
  if (OtherMatcher && round % 2 === 1) otherLoads.push(load(OtherMatcher).ms)
  const { matcher, ms } = load(SecretMatcher)
  loads.push(ms)
  if (OtherMatcher && round % 2 === 0) otherLoads.push(load(OtherMatcher).ms)
  const times: number[] = []
  for (let index = 0; index < 1000; index += 1) {
    const secret = token()
    const before = performance.now()
    matcher.add(secret)
    times.push(performance.now() - before)
  }
  adds.push(median(times) * 1000)
}

afterAll(() => {
  report(`Redaction with every kept token known: ${ROUNDS} interleaved rounds, median of ${CALLS} calls a round (min, max)`, [
    ...sizes.map((size): [string, string, string] => [
      `a call's record (entry, request, 600-character answer) redacted of its 2 secrets and ${size.toLocaleString('en')} known`,
      describeSpread(spread(runs[`known ${size}`]!), 'ms'),
      size === 10_000 ? '< 2× the 2 known' : '',
    ]),
    ...(other
      ? ([
          ['… BENCH_APP_DIR’s redactor, the call’s 2 secrets', describeSpread(spread(runs['other, 2 secrets']!), 'ms'), ''],
          [
            `… BENCH_APP_DIR’s redactor given 100 as its list, a new list each call (median of ${OTHER_CALLS}; at 1,000 it ran out of memory)`,
            describeSpread(spread(runs['other, 100 secrets']!), 'ms'),
            '',
          ],
        ] as Array<[string, string, string]>)
      : []),
    ...hexSizes.map((size): [string, string, string] => [
      `a 64-character hex text holding no secret, searched by a matcher of ${size.toLocaleString('en')} hex tokens${other?.SecretMatcher ? ' (BENCH_APP_DIR’s matcher after the slash)' : ''}`,
      other?.SecretMatcher
        ? `${describeSpread(spread(runs[`hex ${size}`]!), 'µs')} / ${describeSpread(spread(runs[`other hex ${size}`]!), 'µs')}`
        : describeSpread(spread(runs[`hex ${size}`]!), 'µs'),
      size === 30_000 ? '< 10 µs' : '',
    ]),
    ['one more token known, in a matcher of 10,000 (median of 1,000 a round)', describeSpread(spread(adds), 'µs'), '< 50 µs'],
    ['10,000 tokens read into a matcher (a process’s first redaction)', describeSpread(spread(loads), 'ms'), '< 200 ms'],
    ...(otherLoads.length
      ? ([['… BENCH_APP_DIR’s matcher, the same rounds', describeSpread(spread(otherLoads), 'ms'), '']] as Array<[string, string, string]>)
      : []),
  ])
})

describe('redaction', () => {
  bench('a record with 10,000 known', () => void createRedactor([apiToken], () => matchers[10_000])(record(1)), { iterations: 20, time: 0 })
})
