const HEX_COLOR = /^#(?:[0-9a-fA-F]{3}|[0-9a-fA-F]{6})$/

/** The schema's hex rule, for the swatches and the preview, which fall back on anything else. */
export const isHexColor = (value: unknown): value is string => typeof value === 'string' && HEX_COLOR.test(value)

function channels(hex: string): [number, number, number] {
  const digits = hex.length === 4 ? [...hex.slice(1)].map((digit) => digit + digit).join('') : hex.slice(1)
  return [0, 2, 4].map((start) => parseInt(digits.slice(start, start + 2), 16) / 255) as [number, number, number]
}

/** WCAG relative luminance. */
export function luminance(hex: string): number {
  const [r, g, b] = channels(hex).map((channel) => (channel <= 0.03928 ? channel / 12.92 : ((channel + 0.055) / 1.055) ** 2.4)) as [
    number,
    number,
    number,
  ]
  return 0.2126 * r + 0.7152 * g + 0.0722 * b
}

export function contrastRatio(a: string, b: string): number {
  const [light, dark] = [luminance(a), luminance(b)].sort((x, y) => y - x) as [number, number]
  return (light + 0.05) / (dark + 0.05)
}

/** Black or white, whichever reads better on `background`: the writer's colours never make the preview unreadable. */
export const readableTextOn = (background: string) =>
  contrastRatio(background, '#000000') >= contrastRatio(background, '#FFFFFF') ? '#000000' : '#FFFFFF'

const hexOf = (channels: readonly number[]) =>
  `#${channels
    .map((channel) =>
      Math.round(Math.min(1, Math.max(0, channel)) * 255)
        .toString(16)
        .padStart(2, '0'),
    )
    .join('')}`

/**
 * The writer's colour as text on `background`: itself when it reads well (WCAG AA, 4.5:1), else
 * mixed towards black or white, whichever the background calls for, just far enough to read. A
 * pale primary keeps its hue in the preview without leaving a selected page unreadable.
 */
export function readableAccent(colour: string, background: string, minimum = 4.5): string {
  if (contrastRatio(colour, background) >= minimum) return colour
  const towards = readableTextOn(background) === '#000000' ? 0 : 1
  const from = channels(colour)
  for (let step = 1; step <= 20; step++) {
    const mixed = hexOf(from.map((channel) => channel + (towards - channel) * (step / 20)))
    if (contrastRatio(mixed, background) >= minimum) return mixed
  }
  return readableTextOn(background)
}
