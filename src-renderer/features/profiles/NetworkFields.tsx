import type { ProxyMode } from '../../../src-shared/profiles/schemas'
import { Field } from '../../ui/Field'
import type { ProfileFormValues } from './profile-form-values'

const PROXY_MODES: Array<[ProxyMode, string]> = [
  ['environment', 'As this computer says (HTTPS_PROXY, HTTP_PROXY, NO_PROXY)'],
  ['direct', 'No proxy'],
  ['custom', 'This proxy'],
]

interface NetworkFieldsProps {
  values: ProfileFormValues
  /** The profile being edited has a proxy password saved. */
  proxyPasswordSet: boolean
  /** A proxy password was typed and will be sent. */
  passwordGiven: boolean
  problemFor(field: keyof ProfileFormValues): string | null
  onChange<K extends keyof ProfileFormValues>(key: K, value: ProfileFormValues[K]): void
}

/** The proxy a profile's calls go through and the certificate authorities they trust, folded away while both are the default. */
export function NetworkFields({ values, proxyPasswordSet, passwordGiven, problemFor, onChange }: NetworkFieldsProps) {
  const { proxyMode, proxyUrl, proxyUsername, proxyPassword, clearProxyPassword, caBundlePath } = values
  return (
    <details className="network" open={proxyMode !== 'environment' || caBundlePath !== ''}>
      <summary>Network: proxy and certificates</summary>
      <div className="stack network__body">
        <fieldset className="choice">
          <legend>Proxy</legend>
          {PROXY_MODES.map(([mode, label]) => (
            <label key={mode}>
              <input type="radio" name="proxy-mode" checked={proxyMode === mode} onChange={() => onChange('proxyMode', mode)} /> {label}
            </label>
          ))}
        </fieldset>
        <p className="muted network__note">The local sandbox and other loopback addresses never go through a proxy.</p>
        {proxyMode === 'custom' ? (
          <>
            <Field
              label="Proxy address"
              required
              hint="http://host:port, or https://. Overrides the proxy variables for this profile."
              error={proxyUrl ? problemFor('proxyUrl') : null}
            >
              <input
                type="url"
                spellCheck={false}
                placeholder="http://proxy.example.com:3128"
                value={proxyUrl}
                onChange={(event) => onChange('proxyUrl', event.target.value)}
              />
            </Field>
            <div className="form-grid">
              <Field label="Proxy user name" hint="Only if the proxy asks for one." error={problemFor('proxyUsername')}>
                <input
                  type="text"
                  autoComplete="off"
                  spellCheck={false}
                  value={proxyUsername}
                  onChange={(event) => onChange('proxyUsername', event.target.value)}
                />
              </Field>
              <Field
                label="Proxy password"
                hint={
                  proxyPasswordSet
                    ? 'Set. Type a new one to replace it; leave empty to keep it.'
                    : 'Kept where the API token is, and never shown again.'
                }
                error={passwordGiven ? problemFor('proxyPassword') : null}
              >
                <input
                  type="password"
                  autoComplete="off"
                  value={proxyPassword}
                  disabled={clearProxyPassword}
                  onChange={(event) => onChange('proxyPassword', event.target.value)}
                />
              </Field>
            </div>
            {proxyPasswordSet ? (
              <label className="inline-field">
                <input
                  type="checkbox"
                  checked={clearProxyPassword}
                  onChange={(event) => onChange('clearProxyPassword', event.target.checked)}
                />{' '}
                Remove the saved proxy password
              </label>
            ) : null}
          </>
        ) : null}
        <Field
          label="CA bundle file"
          hint="A PEM file of certificate authorities to trust besides this computer's, such as your company's TLS-inspection CA: its full path. Checked when you save."
          error={caBundlePath ? problemFor('caBundlePath') : null}
        >
          <input
            type="text"
            spellCheck={false}
            placeholder="/etc/ssl/certs/company-ca.pem"
            value={caBundlePath}
            onChange={(event) => onChange('caBundlePath', event.target.value)}
          />
        </Field>
      </div>
    </details>
  )
}
