import type { z } from 'zod'
import type { SiteConfigProblem } from './problem'
import { formatProblemPath } from './problem-path'

type Issue = z.core.$ZodIssue

/**
 * Turns zod's issues into problems a writer can act on. zod's own messages ("Invalid input:
 * expected string, received number") name its internals; these name what to write instead.
 * Messages the schema sets itself (hex colours, unions, the call-to-action name, footer
 * platforms) are kept as written there. The issues must come from a parse with `reportInput`.
 */
export function problemsFromIssues(issues: readonly Issue[]): SiteConfigProblem[] {
  const problems: SiteConfigProblem[] = []
  for (const issue of issues) addProblems(issue, [], problems)
  return problems
}

function addProblems(issue: Issue, parentPath: readonly PropertyKey[], problems: SiteConfigProblem[]): void {
  const path = [...parentPath, ...issue.path]
  switch (issue.code) {
    case 'invalid_union': {
      // A union fails as a whole, with one list of issues per option. When the value has the
      // right type for one option (an object where "a path or an object" is allowed), that
      // option's issues say what is wrong inside it; otherwise the union's own message does.
      const matchingOption = issue.errors.find((optionIssues) => !optionIssues.every(isWrongTypeAtOptionRoot))
      if (matchingOption) for (const inner of matchingOption) addProblems(inner, path, problems)
      else problems.push({ path: formatProblemPath(path), message: issue.message })
      return
    }
    case 'unrecognized_keys':
      for (const key of issue.keys) problems.push({ path: formatProblemPath([...path, key]), message: issue.message })
      return
    case 'invalid_type':
      problems.push({ path: formatProblemPath(path), message: wrongTypeMessage(issue.expected, issue.input) })
      return
    case 'invalid_value':
      problems.push({ path: formatProblemPath(path), message: notAllowedMessage(issue.values, issue.input) })
      return
    default:
      problems.push({ path: formatProblemPath(path), message: issue.message })
  }
}

const isWrongTypeAtOptionRoot = (issue: Issue) => issue.code === 'invalid_type' && issue.path.length === 0

const EXPECTED_WORDS: Record<string, string> = {
  string: 'a string',
  boolean: 'true or false',
  array: 'a list',
  object: 'an object',
}

function wrongTypeMessage(expected: string, input: unknown): string {
  // JSON has no undefined: the key is absent.
  if (input === undefined) return 'is required'
  return `must be ${EXPECTED_WORDS[expected] ?? expected}, not ${describeValue(input)}`
}

function notAllowedMessage(allowed: readonly unknown[], input: unknown): string {
  const quoted = allowed.map((value) => JSON.stringify(value))
  const choices = quoted.length <= 2 ? quoted.join(' or ') : `one of ${quoted.slice(0, -1).join(', ')} or ${quoted.at(-1)}`
  return `must be ${choices}, not ${describeValue(input)}`
}

function describeValue(value: unknown): string {
  if (value === null) return 'null'
  if (Array.isArray(value)) return 'a list'
  switch (typeof value) {
    case 'string':
      return value.length <= 40 ? JSON.stringify(value) : 'a long string'
    case 'number':
      return `the number ${value}`
    case 'boolean':
      return String(value)
    case 'object':
      return 'an object'
    default:
      // Only reachable from code handing in values JSON cannot hold (functions, bigints…).
      return `a ${typeof value}`
  }
}
