import { expect } from 'vitest'
import { AppErrorException } from '../../src-shared/ipc/result'

/** The AppErrorException a promise rejects with; fails the test if it resolves or throws anything else. */
export async function failureOf(promise: Promise<unknown>): Promise<AppErrorException> {
  const error = await promise.then(
    () => undefined,
    (thrown: unknown) => thrown,
  )
  expect(error).toBeInstanceOf(AppErrorException)
  return error as AppErrorException
}
