import { describe, expect, it } from 'vitest'
import type { JournalItem } from '../../../src-main/bulk/bulk-journal'
import { afterSuccess, type SentGroup } from '../../../src-main/bulk/row-answers'

// A get-or-create that finds its group already there: the API shows the group's name and
// properties, never its mapping, which the app knows only from what it last sent (the catalog).

const ROW_MAPPING = { sales: 'warehouse' }
const item = (attempts: number): JournalItem => ({
  seq: 0,
  line: 2,
  groupId: 'acme',
  request: { user_group_id: 'acme', name: 'Acme', mapping: ROW_MAPPING },
  action: 'create',
  attempts,
})
const found: SentGroup = {
  group: { team_id: 7, token: 'tok-acme-0001', name: 'Acme', provided_id: 'acme', properties: null },
  newUserGroup: false,
  httpStatus: 200,
}

const answer = (options: { attempts: number; sendUpdate: boolean; catalogMapping?: unknown }) =>
  afterSuccess(found, {
    item: item(options.attempts - 1),
    call: 'getOrCreate',
    attempts: options.attempts,
    previouslyTried: options.attempts > 1,
    knownMapping: () => options.catalogMapping,
    sendUpdate: options.sendUpdate,
  })

const outcome = (end: ReturnType<typeof afterSuccess>) => (end.kind === 'settle' ? end.settlement.outcome : end.kind)

describe('a group found where the row was sent before (a crash, or a try whose answer was lost)', () => {
  it('is sent the row’s mapping when updates are chosen and the app does not know the mapping it holds', () => {
    // The group may have been there before the run with another mapping: only an update makes sure.
    expect(outcome(answer({ attempts: 2, sendUpdate: true }))).toBe('followUp')
  })

  it('is counted created, taken for the run’s own, when updates are not chosen', () => {
    expect(outcome(answer({ attempts: 2, sendUpdate: false }))).toBe('created')
  })

  it('is judged by the mapping the app last sent when it knows it', () => {
    expect(outcome(answer({ attempts: 2, sendUpdate: true, catalogMapping: ROW_MAPPING }))).toBe('created')
    expect(outcome(answer({ attempts: 2, sendUpdate: true, catalogMapping: { sales: 'lake' } }))).toBe('followUp')
    expect(outcome(answer({ attempts: 2, sendUpdate: false, catalogMapping: { sales: 'lake' } }))).toBe('skipped')
  })
})

describe('a group found at the row’s first try', () => {
  it('is unchanged when the app last sent it the row’s mapping, and updated or skipped when it does not know', () => {
    expect(outcome(answer({ attempts: 1, sendUpdate: true, catalogMapping: ROW_MAPPING }))).toBe('unchanged')
    expect(outcome(answer({ attempts: 1, sendUpdate: true }))).toBe('followUp')
    expect(outcome(answer({ attempts: 1, sendUpdate: false }))).toBe('skipped')
  })
})
