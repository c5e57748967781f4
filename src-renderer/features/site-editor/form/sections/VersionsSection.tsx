import { FormSection } from '../controls/FormSection'
import { ListField } from '../controls/ListField'
import { TextField } from '../controls/TextField'

export function VersionsSection() {
  return (
    <FormSection
      id="versions"
      title="Versions"
      description="Version names for the dropdown in the navigation bar; an anchor can be tied to one."
    >
      <ListField
        path={['versions']}
        legend="Versions"
        noun="version"
        layout="row"
        removeWhenEmpty
        newItem={() => ''}
        renderItem={(itemPath, index) => <TextField path={itemPath} label={`Version ${index + 1}`} labelHidden placeholder="v1" />}
      />
    </FormSection>
  )
}
