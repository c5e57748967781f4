import { FOOTER_PLATFORMS, type FooterPlatform, FooterSocialsSchema } from '../../../../../src-shared/site-config/mint-schema'
import { editValue } from '../../state/editor-store'
import { isObject, setIn } from '../../state/json-path'
import { FormSection, ObjectFieldset } from '../controls/FormSection'
import { TextField } from '../controls/TextField'
import { useValueAt } from '../controls/use-field'

const PLATFORM_NAMES: Record<FooterPlatform, string> = {
  website: 'Website',
  facebook: 'Facebook',
  twitter: 'Twitter',
  discord: 'Discord',
  slack: 'Slack',
  github: 'GitHub',
  linkedin: 'LinkedIn',
  instagram: 'Instagram',
  'hacker-news': 'Hacker News',
}

const allowed = new Set<string>(FOOTER_PLATFORMS)

export function FooterSection() {
  return (
    <FormSection id="footer" title="Footer" description="Social accounts linked from the footer: only these platforms are supported.">
      <ObjectFieldset path={['footerSocials']} legend="Social accounts">
        {FOOTER_PLATFORMS.map((platform) => (
          <TextField
            key={platform}
            path={['footerSocials', platform]}
            label={PLATFORM_NAMES[platform]}
            placeholder={FooterSocialsSchema.shape[platform].description?.replace(/\.$/, '')}
          />
        ))}
      </ObjectFieldset>
      <UnsupportedPlatforms />
    </FormSection>
  )
}

/** Platforms docs/site-json.md (footerSocials) does not allow are errors; the form has no field for them, so it offers to remove them. */
function UnsupportedPlatforms() {
  const socials = useValueAt(['footerSocials'])
  const unsupported = isObject(socials) ? Object.keys(socials).filter((key) => !allowed.has(key)) : []
  if (!unsupported.length) return null
  return (
    <ul className="unsupported-keys" aria-label="Unsupported platforms">
      {unsupported.map((key) => (
        <li key={key} className="callout callout--danger">
          <code>{key}</code> is not a supported platform.
          <button
            type="button"
            className="btn btn--small"
            onClick={() => editValue((value) => setIn(value, ['footerSocials', key], undefined))}
          >
            Remove {key}
          </button>
        </li>
      ))}
    </ul>
  )
}
