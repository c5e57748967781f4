import type { Page } from '@playwright/test'

/**
 * Keystroke → Problems, measured inside the page, so the Node ↔ browser round trip is not in it:
 * from the keydown event's own timestamp to the Problems list's change (`dom`), and to the first
 * moment after the frame that draws it (`painted`). A change made in a task between frames is
 * drawn by the next frame; one made by an animation-frame callback is drawn by the frame running
 * it, which ends before any task queued meanwhile runs. The page's requestAnimationFrame is wrapped
 * to tell the two apart.
 */
export async function installKeystrokeProbe(page: Page): Promise<void> {
  await page.evaluate(() => {
    const samples: number[] = []
    const domSamples: number[] = []
    let keyAt = 0
    let waiting = false
    window.addEventListener(
      'keydown',
      (event) => {
        keyAt = event.timeStamp
        waiting = true
      },
      true,
    )
    // A task queued now runs once the current frame (if one is running) has been drawn.
    const afterThisTask = (done: () => void) => {
      const channel = new MessageChannel()
      channel.port1.onmessage = done
      channel.port2.postMessage(null)
    }
    // Whether the frame's callbacks are running: set by the first, cleared by a task of the highest
    // priority, which the browser runs once the frame is drawn and before any task queued earlier
    // (a timer set before the frame would otherwise find the flag still set).
    const { scheduler } = window as unknown as {
      scheduler: { postTask(task: () => void, options: { priority: 'user-blocking' }): unknown }
    }
    const requestFrame = window.requestAnimationFrame.bind(window)
    let inFrame = false
    window.requestAnimationFrame = (callback) =>
      requestFrame((time) => {
        if (!inFrame) scheduler.postTask(() => (inFrame = false), { priority: 'user-blocking' })
        inFrame = true
        callback(time)
      })
    new MutationObserver(() => {
      if (!waiting) return
      waiting = false
      domSamples.push(performance.now() - keyAt)
      const painted = () => samples.push(performance.now() - keyAt)
      if (inFrame) afterThisTask(painted)
      else requestFrame(() => afterThisTask(painted))
    }).observe(document.querySelector('.problems')!, { childList: true, subtree: true, characterData: true })
    Object.assign(window, { keystrokeSamples: samples, domSamples })
  })
}

interface Measured {
  keystrokeSamples: number[]
  domSamples: number[]
}

export const keystrokeSamples = (page: Page) =>
  page.evaluate(() => {
    const measured = window as unknown as Measured
    return { painted: [...measured.keystrokeSamples], dom: [...measured.domSamples] }
  })

/** How many keystrokes were answered so far. */
export const keystrokesAnswered = (page: Page) => page.evaluate(() => (window as unknown as Measured).keystrokeSamples.length)

/** Waits until the page answered more keystrokes than `count`. */
export const keystrokeAnswered = (page: Page, count: number) =>
  page.waitForFunction((before) => (window as unknown as Measured).keystrokeSamples.length > before, count)

/** Forgets the warm-up keystrokes. */
export const clearKeystrokeSamples = (page: Page) =>
  page.evaluate(() => {
    const measured = window as unknown as Measured
    measured.keystrokeSamples.splice(0)
    measured.domSamples.splice(0)
  })
