import { FormSection } from '../controls/FormSection'
import { ListField, nameOfItem } from '../controls/ListField'
import { TextField } from '../controls/TextField'


export function TabsSection() {
  return (
    <FormSection id="tabs" title="Tabs" description="Navigational tabs above the content.">
      <ListField
        path={['tabs']}
        legend="Tabs"
        noun="tab"
        layout="card"
        removeWhenEmpty
        newItem={() => ({ name: '', url: '' })}
        focusInNewItem={(itemPath) => [...itemPath, 'name']}
        titleOf={nameOfItem}
        renderItem={(itemPath) => (
          <div className="form-grid">
            <TextField path={[...itemPath, 'name']} label="Tab name" required placeholder="Guides" />
            <TextField path={[...itemPath, 'url']} label="Tab URL" required placeholder="guides" hint="The folder its pages are in." />
          </div>
        )}
      />
    </FormSection>
  )
}
