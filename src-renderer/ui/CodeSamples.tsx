import { useId, useState } from 'react'
import {
  buildCodeSample,
  SAMPLE_LANGUAGES,
  type SampleCall,
  type SampleLanguage,
  variableList,
} from '../../src-shared/user-api/code-samples'
import { copyText } from '../lib/clipboard'
import { toast } from './toasts'

const LABELS = Object.fromEntries(SAMPLE_LANGUAGES.map(({ id, label }) => [id, label])) as Record<SampleLanguage, string>

/** The same call as code in four languages; copying says every variable to set before running it. */
export function CodeSamples({ baseUrl, call }: { baseUrl: string; call: SampleCall }) {
  const [language, setLanguage] = useState<SampleLanguage>('curl')
  const selectId = useId()
  const sample = buildCodeSample(language, baseUrl, call)
  const copy = () =>
    copyText(sample.code).then(
      () => toast.success(`Copied as ${LABELS[language]}. Set ${variableList(sample.variables)} in your environment to run it.`),
      () => toast.error('The clipboard is not available here.'),
    )
  return (
    <details className="code-samples">
      <summary>Code for this call</summary>
      <div className="code-samples__bar">
        <label htmlFor={selectId}>Language</label>
        <select id={selectId} value={language} onChange={(event) => setLanguage(event.target.value as SampleLanguage)}>
          {SAMPLE_LANGUAGES.map(({ id, label }) => (
            <option key={id} value={id}>
              {label}
            </option>
          ))}
        </select>
        <button type="button" className="btn btn--small" onClick={() => void copy()}>
          Copy as {LABELS[language]}
        </button>
      </div>
      <p className="muted code-samples__note">
        Reads {variableList(sample.variables.map((name) => `$${name}`))} from the environment: the tokens are never written into it.
        {sample.note ? ` ${sample.note}` : ''}
      </p>
      <pre className="raw" aria-label={`${LABELS[language]} code`}>
        {sample.code}
      </pre>
    </details>
  )
}
