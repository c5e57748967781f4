import { useQueryClient } from '@tanstack/react-query'
import { useState } from 'react'
import type { ConnectionTest } from '../../../src-shared/ipc/connection-calls'
import type { ProfileView } from '../../../src-shared/profiles/schemas'
import type { Diagnosis } from '../../../src-shared/user-api/diagnosis'
import { call } from '../../lib/api'
import { queryKeys } from '../../lib/query-keys'

export type TestState = ConnectionTest | 'pending'
export type DiagnosisState = Diagnosis | 'pending' | { error: string }

/**
 * "Test connection" and "Diagnose connection", by profile: each says 'pending' while it runs,
 * then its answer; a test that could not run at all is an unexpected outcome with its message.
 */
export function useConnectionChecks() {
  const queryClient = useQueryClient()
  const [tests, setTests] = useState<Record<string, TestState>>({})
  const [diagnoses, setDiagnoses] = useState<Record<string, DiagnosisState>>({})

  const test = async (profile: ProfileView) => {
    setTests((current) => ({ ...current, [profile.id]: 'pending' }))
    try {
      const result = await call('profiles.testConnection', { id: profile.id })
      setTests((current) => ({ ...current, [profile.id]: result }))
    } catch (error) {
      setTests((current) => ({ ...current, [profile.id]: { outcome: 'unexpected', message: (error as Error).message, durationMs: 0 } }))
    } finally {
      // A test is a logged call.
      void queryClient.invalidateQueries({ queryKey: queryKeys.activity.all })
    }
  }

  const diagnose = async (profile: ProfileView) => {
    setDiagnoses((current) => ({ ...current, [profile.id]: 'pending' }))
    try {
      const diagnosis = await call('profiles.diagnose', { id: profile.id })
      setDiagnoses((current) => ({ ...current, [profile.id]: diagnosis }))
    } catch (error) {
      setDiagnoses((current) => ({ ...current, [profile.id]: { error: (error as Error).message } }))
    }
  }

  return { tests, diagnoses, test, diagnose }
}
