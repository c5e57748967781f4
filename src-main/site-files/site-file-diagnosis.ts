import { dirname } from 'node:path'
import { AppErrorException } from '../../src-shared/ipc/result'
import { detectConfigFormat } from '../../src-shared/site-config/config-format'
import { countsOf, diagnoseDocument, type Diagnosis, readDocumentText } from '../../src-shared/site-config/diagnose'
import type { RuleSet } from '../../src-shared/site-config/rule-sets'
import { RULE_SET_LABELS } from '../../src-shared/site-config/rule-sets'
import { plural } from '../../src-shared/text/plural'
import type { FileAccessPolicy } from '../user-files/file-access'
import { gatherDocumentFacts } from './document-facts'

// What is wrong with a document as the editor, the CLI and the export see it (diagnose.ts), and
// the refusal of an export while it has errors.

export interface SiteTextDiagnosis {
  text: string
  rules: RuleSet
  /** The document's file; null when it has none yet (then no $ref file or docs folder is read). */
  path: string | null
  /** Every path read for it goes through the policy (the data folder is refused). */
  policy: FileAccessPolicy
}

/** The document's problems as the editor and the CLI give them: its $ref files and its docs folder (its file's folder) read first. */
export async function diagnoseSiteText({ text, rules, path, policy }: SiteTextDiagnosis): Promise<Diagnosis> {
  const document = readDocumentText(text)
  const format = document.syntaxError ? 'mint' : detectConfigFormat(document.value, path)
  const allow = (candidate: string) => policy.resolve(candidate)
  const { refs, folder } = path
    ? await gatherDocumentFacts(document, { path, format, root: dirname(path), allow })
    : { refs: undefined, folder: null }
  return diagnoseDocument({ document, path, rules, refs, folder })
}

/** The warnings an export goes ahead with; an error refuses it, counted in a sentence. */
export function requireExportable(diagnosis: Diagnosis, rules: RuleSet): number {
  const { error: errors, warning: warnings } = countsOf(diagnosis)
  if (!diagnosis.valid) {
    const under = diagnosis.format === 'docs' ? 'Mintlify’s docs.json rules' : `the ${RULE_SET_LABELS[rules]} rules`
    throw new AppErrorException(
      'invalid_config',
      `The file has ${plural(errors, 'error')} under ${under}; fix ${errors === 1 ? 'it' : 'them'} before exporting.`,
      { errors },
    )
  }
  return warnings
}
