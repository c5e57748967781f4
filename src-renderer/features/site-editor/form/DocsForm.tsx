import { DOCS_THEMES, DocsConfigSchema } from '../../../../src-shared/site-config/docs-schema'
import { useEditor } from '../state/editor-store'
import { showView } from '../state/view-store'
import { ChoiceField, choicesOf } from './controls/ChoiceField'
import { ColorField } from './controls/ColorField'
import { FormSection, ObjectFieldset } from './controls/FormSection'
import { ListField } from './controls/ListField'
import { TextField } from './controls/TextField'
import { FormShell } from './FormShell'
import { DocsNavigationSection } from './navigation/DocsNavigationSection'
import { meaningOf } from './schema-hints'
import { LogoField } from './sections/ProjectSection'

// docs.json's form: the settings most sites set, from its one schema (docs-schema.ts), and the
// navigation tree. Every other setting is listed by name with the way to the JSON view, where
// Monaco offers docs.json's JSON Schema for it.

const SECTIONS = [
  { id: 'project', label: 'Project' },
  { id: 'colors', label: 'Colours' },
  { id: 'navigation', label: 'Navigation' },
  { id: 'navbar', label: 'Top bar' },
  { id: 'api', label: 'API' },
  { id: 'other', label: 'Other settings' },
]

const FORM_KEYS = new Set([
  '$schema',
  'theme',
  'name',
  'description',
  'logo',
  'favicon',
  'colors',
  'navigation',
  'navbar',
  'api',
  'appearance',
])
const shape = DocsConfigSchema.shape

export function DocsForm() {
  const documentId = useEditor((state) => state.document?.documentId)
  return (
    <FormShell sections={SECTIONS}>
      <FormSection id="project" title="Project">
        <div className="form-grid">
          <TextField path={['name']} label="Project name" required placeholder="My docs" hint={meaningOf(shape.name)} />
          <ChoiceField
            path={['theme']}
            label="Theme"
            choices={choicesOf(DOCS_THEMES)}
            unsetLabel="Not set (required)"
            hint={meaningOf(shape.theme)}
          />
        </div>
        <TextField path={['description']} label="Description" placeholder="What the project is" hint={meaningOf(shape.description)} />
        <LogoField />
        <TextField path={['favicon']} label="Favicon" placeholder="/favicon.svg" hint={meaningOf(shape.favicon)} />
        <div className="form-grid">
          <ChoiceField
            path={['appearance', 'default']}
            label="Light or dark mode"
            choices={choicesOf(['system', 'light', 'dark'])}
            unsetLabel="Not set (default: system)"
          />
          <ChoiceField
            path={['appearance', 'strict']}
            label="Mode toggle"
            choices={[
              { value: false, label: 'Shown' },
              { value: true, label: 'Hidden' },
            ]}
            unsetLabel="Not set (default: shown)"
          />
        </div>
      </FormSection>
      <FormSection id="colors" title="Colours">
        <div className="form-grid">
          <ColorField path={['colors', 'primary']} label="Primary colour" required />
          <ColorField path={['colors', 'light']} label="Primary in dark mode" />
          <ColorField path={['colors', 'dark']} label="Primary in light mode (buttons)" />
        </div>
      </FormSection>
      <DocsNavigationSection key={documentId} />
      <FormSection id="navbar" title="Top bar">
        <ListField
          path={['navbar', 'links']}
          legend="Links"
          noun="link"
          layout="card"
          removeWhenEmpty
          newItem={() => ({ label: '', href: '' })}
          focusInNewItem={(itemPath) => [...itemPath, 'label']}
          titleOf={(item) =>
            typeof item === 'object' && item !== null && 'label' in item && typeof item.label === 'string' ? item.label : undefined
          }
          renderItem={(itemPath) => (
            <div className="form-grid">
              <TextField path={[...itemPath, 'label']} label="Link text" placeholder="Support" />
              <TextField path={[...itemPath, 'href']} label="Link URL" required placeholder="mailto:support@example.com" />
            </div>
          )}
        />
        <ObjectFieldset path={['navbar', 'primary']} legend="Call-to-action button">
          <ChoiceField
            path={['navbar', 'primary', 'type']}
            label="Button type"
            choices={choicesOf(['button', 'github', 'discord'])}
            unsetLabel="Not set (no button)"
          />
          <div className="form-grid">
            <TextField path={['navbar', 'primary', 'label']} label="Button text" placeholder="Dashboard" />
            <TextField path={['navbar', 'primary', 'href']} label="Button URL" placeholder="https://dashboard.example.com" />
          </div>
        </ObjectFieldset>
      </FormSection>
      <FormSection id="api" title="API">
        <TextField path={['api', 'mdx', 'server']} label="Base URL of MDX API pages" placeholder="https://api.example.com" />
        <ChoiceField
          path={['api', 'playground', 'display']}
          label="API playground"
          choices={choicesOf(['interactive', 'simple', 'none', 'auth'])}
          unsetLabel="Not set (default: interactive)"
        />
      </FormSection>
      <OtherSettings />
    </FormShell>
  )
}

/** Settings the form has no field for: named, with the way to the JSON view. */
function OtherSettings() {
  const keys = useEditor((state) =>
    typeof state.value === 'object' && state.value !== null
      ? Object.keys(state.value)
          .filter((key) => !FORM_KEYS.has(key))
          .join('\0')
      : '',
  )
  const names = keys ? keys.split('\0') : []
  return (
    <FormSection
      id="other"
      title="Other settings"
      description="Settings this form has no fields for. They are kept as written; edit them in the JSON view, where docs.json’s schema completes and explains them."
    >
      {names.length ? (
        <ul className="docs-other">
          {names.map((name) => (
            <li key={name}>
              <code>{name}</code>
            </li>
          ))}
        </ul>
      ) : (
        <p className="muted">None: every setting of this file is in the form.</p>
      )}
      <button type="button" className="btn btn--small" onClick={() => showView('json')}>
        Open the JSON view
      </button>
    </FormSection>
  )
}
