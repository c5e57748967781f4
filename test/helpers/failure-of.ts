import { expect } from 'vitest'
import { AppErrorException } from '../../src-shared/ipc/result'

/**
 * The AppErrorException a promise rejects with (or a function throws or rejects with); fails the
 * test if it succeeds or fails with anything else.
 */
export async function failureOf(work: Promise<unknown> | (() => unknown)): Promise<AppErrorException> {
  const running = typeof work === 'function' ? Promise.resolve().then(work) : work
  const error = await running.then(
    () => undefined,
    (thrown: unknown) => thrown,
  )
  expect(error).toBeInstanceOf(AppErrorException)
  return error as AppErrorException
}
