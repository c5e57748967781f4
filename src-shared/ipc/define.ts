import type { z } from 'zod'

/** One renderer → main call: what it takes, what it answers, and a sentence on what it does. */
export interface CallSpec<I extends z.ZodType = z.ZodType, O extends z.ZodType = z.ZodType> {
  readonly input: I
  readonly output: O
  readonly summary: string
}

export const defineCall = <I extends z.ZodType, O extends z.ZodType>(spec: CallSpec<I, O>) => spec
