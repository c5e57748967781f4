/**
 * Runs tasks one after another. The store and the vault change their state only inside a task,
 * and commit it only once the file is written, so two calls at once cannot lose each other's
 * change and a failed write leaves memory and disk agreeing.
 */
export function createSerialQueue() {
  let tail: Promise<unknown> = Promise.resolve()
  return function runInTurn<T>(task: () => Promise<T>): Promise<T> {
    const result = tail.then(task)
    tail = result.catch(() => undefined)
    return result
  }
}
