/*
 * JSON nesting is capped wherever JSON enters the app (API answers, IPC inputs, the sandbox's
 * requests). Parsing deep JSON is fine, but zod, JSON.stringify and every later reader recurse:
 * a value 2,000 levels deep, once stored, would make the next start overflow the stack. Both
 * checks here are iterative, so they cannot overflow themselves.
 */

export const MAX_JSON_DEPTH = 64

export const tooDeepMessage = (what: string, max = MAX_JSON_DEPTH) =>
  `${what} is nested more than ${max} levels deep, which Embed Console does not accept.`

/**
 * Where JSON text opens its (max + 1)th array/object inside the others, or -1: a streaming scan
 * (strings skipped, escapes too) that reads no value and cannot overflow. `end` stops it early.
 */
export function jsonDepthExceededAt(text: string, max = MAX_JSON_DEPTH, end = text.length): number {
  let depth = 0
  let inString = false
  for (let index = 0; index < end; index++) {
    const char = text.charCodeAt(index)
    if (inString) {
      if (char === 0x5c)
        index += 1 // backslash: skip the escaped character
      else if (char === 0x22) inString = false
      continue
    }
    if (char === 0x22) inString = true
    else if (char === 0x5b || char === 0x7b) {
      depth += 1
      if (depth > max) return index
    } else if (char === 0x5d || char === 0x7d) depth -= 1
  }
  return -1
}

/** Whether JSON text opens more than `max` arrays/objects inside one another (strings skipped). */
export const jsonTextTooDeep = (text: string, max = MAX_JSON_DEPTH): boolean => jsonDepthExceededAt(text, max) !== -1

/**
 * Whether a value (a structured clone from IPC, or parsed JSON) nests arrays/objects more than
 * `max` deep. A structured clone can share or cycle references, so nothing is skipped as "seen"
 * (that would let a shared deep chain pass): a cycle simply grows past `max`, and a walk of more
 * than `maxNodes` nodes (a small value that shares its parts exponentially) counts as too deep.
 */
export function valueTooDeep(value: unknown, max = MAX_JSON_DEPTH, maxNodes = 5_000_000): boolean {
  if (value === null || typeof value !== 'object') return false
  const stack: Array<{ node: object; depth: number }> = [{ node: value, depth: 1 }]
  let visited = 0
  while (stack.length > 0) {
    const { node, depth } = stack.pop()!
    if (depth > max || ++visited > maxNodes) return true
    for (const child of Object.values(node)) {
      if (child !== null && typeof child === 'object') stack.push({ node: child, depth: depth + 1 })
    }
  }
  return false
}
