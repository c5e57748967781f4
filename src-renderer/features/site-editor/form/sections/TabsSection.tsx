import { FormSection } from '../controls/FormSection'
import { NamedLinkListField } from '../controls/NamedLinkListField'

export function TabsSection() {
  return (
    <FormSection id="tabs" title="Tabs" description="Navigational tabs above the content.">
      <NamedLinkListField
        path={['tabs']}
        legend="Tabs"
        noun="tab"
        namePlaceholder="Guides"
        urlPlaceholder="guides"
        urlHint="The folder its pages are in."
      />
    </FormSection>
  )
}
