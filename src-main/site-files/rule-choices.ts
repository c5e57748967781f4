import { join } from 'node:path'
import { z } from 'zod'
import { type RuleSet, RuleSetSchema } from '../../src-shared/site-config/rule-sets'
import { readJsonFile, writeJsonFile } from '../storage/json-file'
import { createSerialQueue } from '../storage/serial-queue'

export const RULE_CHOICES_FILE = 'site-rule-choices.json'
/** Enough for every site a writer keeps; the oldest choices go first. */
export const MAX_RULE_CHOICES = 500

const RuleChoicesFileSchema = z.object({ version: z.literal(1), files: z.array(z.object({ path: z.string(), rules: RuleSetSchema })) })

export interface RuleChoices {
  get(path: string): Promise<RuleSet | null>
  set(path: string, rules: RuleSet): Promise<void>
}

/** The rule set chosen for each site.json file, kept in the data folder so a file opens with the rules it was last checked with. */
export function openRuleChoices(dataDir: string): RuleChoices {
  const file = join(dataDir, RULE_CHOICES_FILE)
  const runInTurn = createSerialQueue()
  let choices: Map<string, RuleSet> | null = null

  const load = async () => {
    if (choices) return choices
    // A corrupt list is moved aside by readJsonFile: a forgotten choice is asked again, no more.
    const outcome = await readJsonFile(file, RuleChoicesFileSchema)
    choices = new Map(outcome.state === 'read' ? outcome.value.files.map((entry) => [entry.path, entry.rules] as const) : [])
    return choices
  }

  return {
    get: (path) => runInTurn(async () => (await load()).get(path) ?? null),
    set: (path, rules) =>
      runInTurn(async () => {
        const current = await load()
        if (current.get(path) === rules) return
        const next = new Map(current)
        // Newest last, so the oldest are dropped first.
        next.delete(path)
        next.set(path, rules)
        while (next.size > MAX_RULE_CHOICES) next.delete(next.keys().next().value!)
        await writeJsonFile(file, {
          version: 1,
          files: [...next].map(([entryPath, entryRules]) => ({ path: entryPath, rules: entryRules })),
        })
        choices = next
      }),
  }
}
