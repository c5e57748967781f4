import { TopbarCtaButtonSchema } from '../../../../../src-shared/site-config/schema'
import { ChoiceField, choicesOf } from '../controls/ChoiceField'
import { FormSection, ObjectFieldset } from '../controls/FormSection'
import { ListField, nameOfItem } from '../controls/ListField'
import { TextField } from '../controls/TextField'
import { useShapeAt, useValueAt } from '../controls/use-field'
import { unsetLabelOf } from '../schema-hints'


export function TopbarSection() {
  return (
    <FormSection id="topbar" title="Top bar">
      <ListField
        path={['topbarLinks']}
        legend="Links"
        noun="link"
        layout="card"
        removeWhenEmpty
        newItem={() => ({ name: '', url: '' })}
        focusInNewItem={(itemPath) => [...itemPath, 'name']}
        titleOf={nameOfItem}
        renderItem={(itemPath) => (
          <div className="form-grid">
            <TextField path={[...itemPath, 'name']} label="Link name" required placeholder="Support" />
            <TextField path={[...itemPath, 'url']} label="Link URL" required placeholder="mailto:support@example.com" />
          </div>
        )}
      />
      <CallToActionButton />
    </FormSection>
  )
}

function CallToActionButton() {
  const set = useShapeAt(['topbarCtaButton']) === 'object'
  const type = useValueAt(['topbarCtaButton', 'type'])
  const isGithub = type === 'github'
  return (
    <ObjectFieldset path={['topbarCtaButton']} legend="Call-to-action button">
      <ChoiceField
        path={['topbarCtaButton', 'type']}
        label="Button type"
        choices={choicesOf(TopbarCtaButtonSchema.shape.type.unwrap().options)}
        unsetLabel={unsetLabelOf(TopbarCtaButtonSchema.shape.type)}
        hint="A link button, or a GitHub repository with its star count."
      />
      <TextField
        path={['topbarCtaButton', 'url']}
        label={isGithub ? 'Repository URL' : 'Button URL'}
        required={set}
        placeholder={isGithub ? 'https://github.com/acme/docs' : 'https://dashboard.example.com'}
      />
      <TextField path={['topbarCtaButton', 'name']} label="Button text" required={set && !isGithub} placeholder="Dashboard" />
    </ObjectFieldset>
  )
}
