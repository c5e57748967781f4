// A Stryker ignorer: mutants inside the sentences the app says (the message of an error, a
// problem's or a refusal's text) are not weaker guards, only other words. The code of an
// AppErrorException (its first argument) is a guard and stays mutated, and so is every other
// string (SQL, patterns, forms of a secret).
import { declareValuePlugin, PluginKind } from '@stryker-mutator/api/plugin'

const MESSAGE_CONSTRUCTORS = new Set(['AppErrorException', 'Error', 'TypeError', 'RangeError', 'Refusal', 'UsageError'])
const MESSAGE_KEYS = new Set(['message', 'reason', 'notice', 'question'])

const isText = (path) => path.isStringLiteral() || path.isTemplateLiteral()

/**
 * Constants that only build sentences from a value (a file name): every text inside them is
 * words. Their keys (errno codes) are identifiers, not texts, and stay guarded by the code that
 * looks them up.
 */
const SENTENCE_TABLES = new Set(['DISK_ERRORS'])

function sentenceReason(path) {
  if (!isText(path)) return undefined
  // The outermost text node: a template literal inside another counts as part of it.
  for (let current = path, child = path; current; child = current, current = current.parentPath) {
    if (current.isNewExpression() && current.node.callee.type === 'Identifier' && MESSAGE_CONSTRUCTORS.has(current.node.callee.name)) {
      const first = current.node.arguments[0]
      if (current.node.callee.name === 'AppErrorException' && child.node === first) return undefined
      return `the text of a ${current.node.callee.name}`
    }
    if (
      current.isObjectProperty() &&
      current.node.key.type === 'Identifier' &&
      MESSAGE_KEYS.has(current.node.key.name) &&
      child.node === current.node.value
    ) {
      return `the ${current.node.key.name} of a problem or a refusal`
    }
    if (current.isVariableDeclarator() && current.node.id.type === 'Identifier' && SENTENCE_TABLES.has(current.node.id.name)) {
      return `a sentence built by ${current.node.id.name}`
    }
    if (current.isStatement()) return undefined
    // A function inside a sentence table builds its sentence: keep climbing to the table.
    if (
      current.isFunction() &&
      !(current.parentPath?.isObjectProperty() && current.parentPath.parentPath?.parentPath?.isVariableDeclarator())
    )
      return undefined
  }
  return undefined
}

export const strykerPlugins = [
  declareValuePlugin(PluginKind.Ignore, 'sentences', {
    shouldIgnore: (path) => {
      const reason = sentenceReason(path)
      return reason ? `A sentence for the operator (${reason}): another wording is not a weaker guard.` : undefined
    },
  }),
]
