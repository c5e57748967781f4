export const defaultSleep = (ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms))

/**
 * The pace of requests to one server: a rate a minute, evenly spaced (a token bucket of one),
 * and a time before which nothing is sent (a 429's Retry-After). Shared by every run going to
 * the same profile, so two runs together keep to the profile's limit.
 */
export class Pacer {
  private nextAt = 0
  private notBefore = 0
  constructor(
    private perMinute: number | null,
    private readonly now: () => number = Date.now,
    private readonly sleep: (ms: number) => Promise<void> = defaultSleep,
  ) {}

  setRate(perMinute: number | null) {
    this.perMinute = perMinute
  }

  /** The server asked to wait this long (every request holds back, not only the refused one). */
  holdFor(ms: number) {
    this.notBefore = Math.max(this.notBefore, this.now() + ms)
  }

  waitingUntil(): number | null {
    return this.notBefore > this.now() ? this.notBefore : null
  }

  async take(): Promise<void> {
    while (this.notBefore > this.now()) await this.sleep(this.notBefore - this.now())
    if (this.perMinute === null) return
    const at = Math.max(this.now(), this.nextAt)
    this.nextAt = at + 60_000 / this.perMinute
    const wait = at - this.now()
    if (wait > 0) await this.sleep(wait)
  }
}
