import type { BrowserContext, Frame, Page } from '@playwright/test'

/*
 * What the site preview's benchmark reads inside the browser, installed in every document of the
 * context before its own scripts run (Playwright's init script, which the preview's sandboxed
 * frame gets too, whatever its content security policy says).
 *
 * The editor's page records each keydown and click, and the time of every animation frame (a gap
 * between two frames is a moment the editor could not draw: it froze). The preview's frame
 * records its clicks, when what it shows changed, and when the frame after that change was
 * drawn: the site (its colours, appearance and name), the sidebar (its rows), the open page (its title).
 *
 * The editor and the frame are two documents (maybe two processes): their times are wall-clock
 * milliseconds (Date.now), the one clock both read alike; a keydown's time is its event's own
 * timestamp brought onto that clock.
 */

export interface Change {
  value: string
  at: number
  painted: number | null
}

export interface FrameRecord {
  site: Change[]
  sidebar: Change[]
  title: Change[]
}

export interface EditorRecord {
  keys: number[]
  clicks: number[]
  frames: number[]
}

function probe() {
  const wall = (timeStamp: number) => Date.now() - (performance.now() - timeStamp)
  const afterNextFrame = (done: () => void) =>
    requestAnimationFrame(() => {
      const channel = new MessageChannel()
      channel.port1.onmessage = done
      channel.port2.postMessage(null)
    })
  if (location.pathname === '/preview-frame.html') {
    const record = { site: [], sidebar: [], title: [] } as Record<'site' | 'sidebar' | 'title', Change[]>
    const clicks: number[] = []
    addEventListener('click', (event) => clicks.push(wall(event.timeStamp)), true)
    const last: Record<string, string> = {}
    const read = {
      site: () => {
        const site = document.querySelector('.site')
        const brand = document.querySelector('.topbar__logo')?.getAttribute('alt') ?? document.querySelector('.topbar__name')?.textContent
        return site ? `${site.className}|${site.getAttribute('style')}|${brand}` : ''
      },
      sidebar: () => [...document.querySelectorAll('.sidebar__rows > li')].map((row) => row.textContent).join('\n'),
      title: () => document.querySelector('.page__title')?.textContent ?? '',
    }
    const check = () => {
      for (const key of ['site', 'sidebar', 'title'] as const) {
        const value = read[key]()
        if (value === (last[key] ?? '')) continue
        last[key] = value
        const change: Change = { value, at: Date.now(), painted: null }
        record[key].push(change)
        afterNextFrame(() => (change.painted = Date.now()))
      }
    }
    new MutationObserver(check).observe(document, { subtree: true, childList: true, characterData: true, attributes: true })
    Object.assign(window, { previewProbe: record, previewClicks: clicks })
    return
  }
  const record: EditorRecord = { keys: [], clicks: [], frames: [] }
  addEventListener('keydown', (event) => record.keys.push(wall(event.timeStamp)), true)
  addEventListener('click', (event) => record.clicks.push(wall(event.timeStamp)), true)
  const tick = () => {
    record.frames.push(Date.now())
    if (record.frames.length > 20_000) record.frames.splice(0, 10_000)
    requestAnimationFrame(tick)
  }
  requestAnimationFrame(tick)
  Object.assign(window, { editorProbe: record })
}

export const installPreviewProbe = (context: BrowserContext) => context.addInitScript(probe)

export const editorRecord = (page: Page) => page.evaluate(() => (window as unknown as { editorProbe: EditorRecord }).editorProbe)

/** The preview's frame of a tab (a new one each time the preview is shown). */
export function previewFrame(page: Page): Frame {
  const frame = page.frames().find((candidate) => candidate.url().includes('/preview-frame.html'))
  if (!frame) throw new Error('The preview’s frame is not on the page.')
  return frame
}

export const frameRecord = (frame: Frame) => frame.evaluate(() => (window as unknown as { previewProbe: FrameRecord }).previewProbe)

/** When the frame last saw a click (a reader's, in its sidebar or tabs). */
export const lastFrameClick = (frame: Frame) =>
  frame.evaluate(() => (window as unknown as { previewClicks: number[] }).previewClicks.at(-1) ?? 0)

/** The number of changes of `key` seen in the frame so far. */
export const changesSeen = async (frame: Frame, key: keyof FrameRecord) => (await frameRecord(frame))[key].length

/** Waits for a change of `key` after the first `count` (holding `contains`, when given) whose next frame was drawn, and returns it. */
export async function changePainted(frame: Frame, key: keyof FrameRecord, count: number, contains = '') {
  const handle = await frame.waitForFunction(
    ({ key, count, contains }) =>
      (window as unknown as { previewProbe: FrameRecord }).previewProbe[key]
        .slice(count)
        .find((change) => change.painted !== null && change.value.includes(contains)) ?? null,
    { key, count, contains },
    { timeout: 60_000 },
  )
  return (await handle.jsonValue()) as Change
}

/** Two animation frames in a row in the editor: a tab just brought to the front draws again before a measure starts. */
export const settle = (page: Page) =>
  page.evaluate(() => new Promise<void>((resolve) => requestAnimationFrame(() => requestAnimationFrame(() => resolve()))))

/** The longest time the editor went without drawing a frame between `from` and `to` (wall-clock ms). */
export function longestGap(frames: readonly number[], from: number, to: number): number {
  let longest = 0
  for (let index = 1; index < frames.length; index++) {
    const [before, after] = [frames[index - 1]!, frames[index]!]
    if (after <= from || before >= to) continue
    longest = Math.max(longest, after - Math.max(before, from))
  }
  // No frame at all after `from` up to `to`: the whole span was one freeze.
  const lastFrame = frames.at(-1) ?? from
  return Math.max(longest, lastFrame < to ? to - Math.max(lastFrame, from) : 0)
}
