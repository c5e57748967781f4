import { TopbarCtaButtonSchema } from '../../../../../src-shared/site-config/mint-schema'
import { ChoiceField, choicesOf } from '../controls/ChoiceField'
import { FormSection, ObjectFieldset } from '../controls/FormSection'
import { NamedLinkListField } from '../controls/NamedLinkListField'
import { TextField } from '../controls/TextField'
import { useShapeAt, useValueAt } from '../controls/use-field'
import { unsetLabelOf } from '../schema-hints'

export function TopbarSection() {
  return (
    <FormSection id="topbar" title="Top bar">
      <NamedLinkListField
        path={['topbarLinks']}
        legend="Links"
        noun="link"
        namePlaceholder="Support"
        urlPlaceholder="mailto:support@example.com"
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
