import type { Page } from '@playwright/test'

/**
 * Keystroke → Problems, measured inside the page, so the Node ↔ browser round trip is not in it:
 * from the keydown event's own timestamp to the Problems list's change (`dom`), and to the first
 * moment after the frame that follows it (`painted`).
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
    const afterNextFrame = (done: () => void) =>
      requestAnimationFrame(() => {
        const channel = new MessageChannel()
        channel.port1.onmessage = done
        channel.port2.postMessage(null)
      })
    new MutationObserver(() => {
      if (!waiting) return
      waiting = false
      domSamples.push(performance.now() - keyAt)
      afterNextFrame(() => samples.push(performance.now() - keyAt))
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
