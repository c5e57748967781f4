/*
 * Finding secrets in text, at a cost that does not grow with the number of secrets known.
 *
 * A secret is looked for in the forms it can take in what a server sends back, Node reports or an
 * operator types: as typed, in any case (a server may upper-case what it echoes), and base64 of
 * its UTF-8 bytes (standard, unpadded, URL-safe), whose case is part of what it says. Escapes are
 * undone in the text rather than written into each secret: a text holding `\` is searched once
 * more with its JSON escapes decoded (`\"`, `\uXXXX` in any case: a body echoed inside a JSON
 * string), one holding `%` with its URL encoding decoded, each decoded character knowing where it
 * came from, so what is replaced is the encoded text.
 *
 * Each form is filed under a window of its characters (folded to lower case), chosen where few
 * other forms are filed: a text is read once a window width in use, one table lookup per character
 * (a filter of up to 2^22 bits answers most of them), and only the forms filed under a window
 * found are compared.
 * A form as long as a token is filed under a window of WIDE_WINDOW characters, a shorter one under
 * one of MIN_SECRET_LENGTH: in text of a token's own alphabet (hex) nearly every 4-character window
 * is some known token's once thousands are known, and each would be compared (a cache miss a form),
 * where a 16-character window is almost never one unless the token is there. Adding a secret costs
 * its own forms, whatever is known already.
 */

/** At least this long to be searched for: shorter "secrets" would redact half of every text and protect nothing. */
export const MIN_SECRET_LENGTH = 4
/**
 * Longer than any token: a "secret" this long (a pasted file, 32 MB in a test) is searched for as
 * typed, JSON-escaped and URL-encoded only, with the engine's own string search (comparing it at
 * every place that begins like it could take time quadratic in its length).
 */
const LONG_SECRET_LENGTH = 4096

/** The filter grows to 2^22 bits (512 kB) at most: sparse enough for 100,000 secrets. */
const FILTER_MAX_MASK = (1 << 22) - 1

/** Lone surrogates (half of a UTF-16 pair) as U+FFFD: what any encoder would send for them, and what never throws. */
const wellFormed = (text: string) => text.replace(/[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/g, '\uFFFD')

/**
 * Printable ASCII alone (a token's characters): lower-cased as folded, its other cases folding to
 * the same, and no lone surrogate in it. Other text takes the general way, which is right for all.
 */
const PRINTABLE_ASCII = /^[ -~]*$/

/** ASCII letters lower-cased, nothing else touched: the length stays, so a place in the fold is the place in the text. */
const foldCode = (code: number) => (code >= 65 && code <= 90 ? code + 32 : code)
const fold = (text: string) =>
  PRINTABLE_ASCII.test(text) ? text.toLowerCase() : text.replace(/[A-Z]+/g, (letters) => letters.toLowerCase())

/** One way a secret can be written. */
interface Form {
  /** Folded when `anyCase`. */
  text: string
  /** Matched with ASCII letters in any case. */
  anyCase: boolean
  secret: string
  /** Where in `text` the window it is filed under begins. */
  offset: number
}

function formsOf(secret: string): Array<Omit<Form, 'offset'>> {
  const printable = PRINTABLE_ASCII.test(secret)
  const sendable = printable ? secret : wellFormed(secret)
  const forms = new Map<string, Omit<Form, 'offset'>>()
  const add = (text: string, anyCase: boolean) => {
    const written = anyCase ? fold(text) : text
    const key = `${anyCase ? 'i' : 's'}${written}`
    if (!forms.has(key)) forms.set(key, { text: written, anyCase, secret })
  }
  // Letters beyond ASCII do not fold: their upper and lower case come as forms of their own.
  for (const cased of printable ? [secret] : [secret, sendable, sendable.toUpperCase(), sendable.toLowerCase()]) add(cased, true)
  const bytes = Buffer.from(sendable)
  const base64 = bytes.toString('base64')
  add(base64, false)
  add(base64.replace(/=+$/, ''), false)
  add(bytes.toString('base64url'), false)
  return [...forms.values()]
}

/** The window of a form at least this long: see the top of this file. */
const WIDE_WINDOW = 16

/** The polynomial of a window, rolled one character at a time: `hash` of the window at i+1 from the one at i. */
const BASE = 0x01000193

/** A window hash as a table key: a small integer, which a Map keeps unboxed. */
const keyOf = (hash: number) => hash >>> 2

/** The forms filed under a window `width` characters wide, and the filter in front of them. */
class WindowTable {
  readonly byWindow = new Map<number, Form[]>()
  /** A bit per window key (modulo its size), set where a form is filed: most places of a text end here. */
  private filter = new Int32Array(1 << 7)
  private filterMask = (1 << 12) - 1
  /** BASE to the power width - 1: what the character leaving a window weighed in its hash. */
  private readonly leavingWeight: number

  constructor(readonly width: number) {
    let weight = 1
    for (let power = 1; power < width; power += 1) weight = Math.imul(weight, BASE)
    this.leavingWeight = weight
  }

  /** The hash of the folded window of `text` at `at`, as the scan rolls it along a text. */
  private hashAt(text: string, at: number): number {
    let hash = 0
    for (let offset = 0; offset < this.width; offset += 1) hash = (Math.imul(hash, BASE) + foldCode(text.charCodeAt(at + offset))) | 0
    return hash
  }

  /**
   * Files a form under the least crowded of a few of its windows (the first empty one, if any):
   * tokens that share a prefix (`sk_live_…`) would otherwise all be compared wherever it appears.
   */
  file(form: Omit<Form, 'offset'>): void {
    const last = form.text.length - this.width
    let best = { offset: 0, key: 0, crowd: Infinity }
    for (let step = 0; step <= 8; step += 1) {
      const offset = Math.round((last * step) / 8)
      const key = keyOf(this.hashAt(form.text, offset))
      const crowd = this.byWindow.get(key)?.length ?? 0
      if (crowd < best.crowd) best = { offset, key, crowd }
      if (crowd === 0) break
    }
    const filed = this.byWindow.get(best.key)
    const placed = { ...form, offset: best.offset }
    if (filed) filed.push(placed)
    else this.byWindow.set(best.key, [placed])
    this.mark(best.key)
    // Kept sparse (a bit in 32 set at most): grown, and filled again, as forms come.
    if (this.byWindow.size * 32 > this.filterMask + 1 && this.filterMask < FILTER_MAX_MASK) {
      this.filterMask = this.filterMask * 2 + 1
      this.filter = new Int32Array((this.filterMask + 1) >>> 5)
      for (const key of this.byWindow.keys()) this.mark(key)
    }
  }

  private mark(key: number): void {
    const bit = (Math.imul(key, 0x9e3779b1) >>> 0) & this.filterMask
    this.filter[bit >>> 5]! |= 1 << (bit & 31)
  }

  /** One pass over a text (or a decoded view of one): a rolled hash a place, the filter, then the forms filed there. */
  scan(seen: string, view: DecodedView | null, spans: Spans, first: boolean): string | undefined {
    const { width, filter, filterMask, byWindow, leavingWeight } = this
    if (byWindow.size === 0 || seen.length < width) return undefined
    let hash = this.hashAt(seen, 0)
    for (let at = 0; ; at += 1) {
      const key = keyOf(hash)
      const bit = (Math.imul(key, 0x9e3779b1) >>> 0) & filterMask
      if ((filter[bit >>> 5]! & (1 << (bit & 31))) !== 0) {
        for (const form of byWindow.get(key) ?? []) {
          const start = at - form.offset
          if (!formAt(seen, start, form)) continue
          if (first) return form.secret
          const end = start + form.text.length
          spans.push(view ? positionIn(view, start) : start, view ? positionIn(view, end) : end)
        }
      }
      if (at + width >= seen.length) return undefined
      const leaving = foldCode(seen.charCodeAt(at))
      hash = (Math.imul((hash - Math.imul(leaving, leavingWeight)) | 0, BASE) + foldCode(seen.charCodeAt(at + width))) | 0
    }
  }
}

function formAt(text: string, at: number, form: Form): boolean {
  const length = form.text.length
  if (at < 0 || at + length > text.length) return false
  if (!form.anyCase) return text.startsWith(form.text, at)
  for (let offset = 0; offset < length; offset += 1) {
    if (foldCode(text.charCodeAt(at + offset)) !== form.text.charCodeAt(offset)) return false
  }
  return true
}

/**
 * A text as an encoder may have written it, decoded. Where a character was decoded the positions
 * of the two part: `from[i]` in the decoded text is `to[i]` in the text, and from there on they
 * run together until the next pair (a decoded text of 32 MB keeps two numbers an escape, not one a character).
 */
interface DecodedView {
  text: string
  from: number[]
  to: number[]
}

/** A position (between two characters) of a decoded view, in its text. */
function positionIn(view: DecodedView, at: number): number {
  let low = 0
  let high = view.from.length - 1
  let found = -1
  while (low <= high) {
    const middle = (low + high) >>> 1
    if (view.from[middle]! <= at) {
      found = middle
      low = middle + 1
    } else high = middle - 1
  }
  return found === -1 ? at : view.to[found]! + (at - view.from[found]!)
}

const JSON_ESCAPES: Record<string, string> = { '"': '"', '\\': '\\', '/': '/', b: '\b', f: '\f', n: '\n', r: '\r', t: '\t' }
const HEX4 = /^[0-9a-fA-F]{4}$/

/** Decodes what a decoder recognises at `at` (returning the decoded text and the characters it took), or null. */
type Decoder = (text: string, at: number) => { decoded: string; taken: number } | null

function decodedView(text: string, marker: string, decode: Decoder): DecodedView | null {
  if (!text.includes(marker)) return null
  const parts: string[] = []
  const view: DecodedView = { text: '', from: [], to: [] }
  let length = 0
  let at = 0
  while (at < text.length) {
    const next = text.indexOf(marker, at)
    const plainEnd = next === -1 ? text.length : next
    if (plainEnd > at) {
      parts.push(text.slice(at, plainEnd))
      length += plainEnd - at
      at = plainEnd
      continue
    }
    const found = decode(text, at)
    if (!found) {
      parts.push(marker)
      length += 1
      at += 1
      continue
    }
    parts.push(found.decoded)
    view.from.push(length, length + found.decoded.length)
    view.to.push(at, at + found.taken)
    length += found.decoded.length
    at += found.taken
  }
  view.text = parts.join('')
  return view
}

/** `\"`, `\\`, `\n`… and `\uXXXX` (also `\UXXXX`, as a server upper-casing what it echoes writes it). */
const jsonEscape: Decoder = (text, at) => {
  const letter = text[at + 1]
  if (letter === undefined) return null
  const simple = JSON_ESCAPES[letter]
  if (simple !== undefined) return { decoded: simple, taken: 2 }
  const hex = text.slice(at + 2, at + 6)
  return (letter === 'u' || letter === 'U') && HEX4.test(hex) ? { decoded: String.fromCharCode(parseInt(hex, 16)), taken: 6 } : null
}

const strictUtf8 = new TextDecoder('utf-8', { fatal: true })

/**
 * `\uXXXX` wherever it is, even after a backslash of its own: a JSON reader takes `\\u0061` for a
 * backslash and "u0061", but a secret escaped after some text ending in `\` is still there to see.
 */
const unicodeEscapeAnywhere: Decoder = (text, at) => {
  const letter = text[at + 1]
  const hex = text.slice(at + 2, at + 6)
  return (letter === 'u' || letter === 'U') && HEX4.test(hex) ? { decoded: String.fromCharCode(parseInt(hex, 16)), taken: 6 } : null
}

const byteAt = (text: string, at: number): number | null => {
  if (text[at] !== '%') return null
  const hex = text.slice(at + 1, at + 3)
  return /^[0-9a-fA-F]{2}$/.test(hex) ? parseInt(hex, 16) : null
}

/** One character as `%XX` (one to four UTF-8 bytes, any case); a byte that starts no character is left as it is. */
const percentEscape: Decoder = (text, at) => {
  const lead = byteAt(text, at)
  if (lead === null) return null
  const length = lead < 0x80 ? 1 : lead >= 0xf0 && lead < 0xf8 ? 4 : lead >= 0xe0 ? 3 : lead >= 0xc2 && lead < 0xe0 ? 2 : 0
  if (length === 0) return null
  const bytes = [lead]
  for (let index = 1; index < length; index += 1) {
    const byte = byteAt(text, at + 3 * index)
    if (byte === null || (byte & 0xc0) !== 0x80) return null
    bytes.push(byte)
  }
  try {
    return { decoded: strictUtf8.decode(Uint8Array.from(bytes)), taken: 3 * length }
  } catch {
    return null
  }
}

/** Where each known form was found in a text: pairs of [start, end) in the text's own positions. */
type Spans = number[]

/**
 * The secrets to look for. The app keeps one for every secret in the vault, told of each new one
 * as it is kept (SecretVault.knownSecrets); a call adds its own in one of its own.
 */
export class SecretMatcher {
  private readonly secrets = new Map<string, string | undefined>()
  private readonly long: Form[] = []
  /** Forms shorter than WIDE_WINDOW, and the rest. */
  private readonly narrow = new WindowTable(MIN_SECRET_LENGTH)
  private readonly wide = new WindowTable(WIDE_WINDOW)
  /** The length of the shortest form: a text shorter than that holds none. */
  shortest = Infinity

  /** Knows `secret` from now on (one shorter than MIN_SECRET_LENGTH is ignored), with what it is (a vault key) for `find`. */
  add(secret: string, tag?: string): void {
    if (secret.length < MIN_SECRET_LENGTH || this.secrets.has(secret)) return
    this.secrets.set(secret, tag)
    this.shortest = Math.min(this.shortest, secret.length)
    if (secret.length > LONG_SECRET_LENGTH) {
      const json = JSON.stringify(secret).slice(1, -1)
      const encoded = encodeURIComponent(wellFormed(secret))
      this.long.push({ text: secret, anyCase: false, secret, offset: 0 })
      if (json.length !== secret.length) this.long.push({ text: json, anyCase: false, secret, offset: 0 })
      if (encoded.length !== secret.length) this.long.push({ text: encoded, anyCase: false, secret, offset: 0 })
      // Longest first: a longer form is never left half-replaced by a shorter one it begins with.
      this.long.sort((a, b) => b.text.length - a.text.length)
      return
    }
    for (const form of formsOf(secret)) (form.text.length >= WIDE_WINDOW ? this.wide : this.narrow).file(form)
  }

  get size(): number {
    return this.secrets.size
  }

  /** Whether `secret` is searched for: every one of its forms is found as its own would be. */
  knows(secret: string): boolean {
    return this.secrets.has(secret)
  }

  /** What the secret was added as (its vault key), if anything. */
  tagOf(secret: string): string | undefined {
    return this.secrets.get(secret)
  }

  /**
   * The text with every form of a secret longer than any token replaced, first: such a form may
   * be most of the text, which is then not read character by character.
   */
  replaceLong(text: string, replacement: string): string {
    let replaced = text
    for (const form of this.long) if (replaced.length >= form.text.length) replaced = replaced.split(form.text).join(replacement)
    return replaced
  }

  /**
   * Adds to `spans` where each form of a known secret (not one longer than any token: see
   * replaceLong) is in `text`, as typed and with its escapes decoded; with `first`, stops at the
   * first (of any secret) and answers its secret.
   */
  findIn(text: string, spans: Spans, first = false): string | undefined {
    if (text.length < this.shortest) return undefined
    if (first) for (const form of this.long) if (text.includes(form.text)) return form.secret
    if (this.narrow.byWindow.size + this.wide.byWindow.size === 0) return undefined
    const found = this.scan(text, null, spans, first)
    if (found !== undefined) return found
    const views = [
      () => decodedView(text, '\\', jsonEscape),
      () => (text.includes('\\\\') ? decodedView(text, '\\', unicodeEscapeAnywhere) : null),
      () => decodedView(text, '%', percentEscape),
    ]
    for (const viewOf of views) {
      const view = viewOf()
      const inView = view && this.scan(view.text, view, spans, first)
      if (inView) return inView
    }
    return undefined
  }

  /** Both tables' passes over a text (or a decoded view of one). */
  private scan(seen: string, view: DecodedView | null, spans: Spans, first: boolean): string | undefined {
    return this.narrow.scan(seen, view, spans, first) ?? this.wide.scan(seen, view, spans, first)
  }
}

/** The text with every span (merged where they overlap or touch) replaced by `replacement`. */
export function replaceSpans(text: string, spans: Spans, replacement: string): string {
  if (spans.length === 0) return text
  const order = Array.from({ length: spans.length / 2 }, (_, index) => index).sort((a, b) => spans[2 * a]! - spans[2 * b]!)
  const parts: string[] = []
  /** Up to where the text is in `parts`, and the span being merged. */
  let kept = 0
  let start = -1
  let end = -1
  for (const index of order) {
    const from = spans[2 * index]!
    const to = spans[2 * index + 1]!
    if (start !== -1 && from <= end) {
      end = Math.max(end, to)
      continue
    }
    if (start !== -1) {
      parts.push(text.slice(kept, start), replacement)
      kept = end
    }
    start = from
    end = to
  }
  parts.push(text.slice(kept, start), replacement, text.slice(end))
  return parts.join('')
}
