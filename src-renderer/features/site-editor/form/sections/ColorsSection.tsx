import { ColorField } from '../controls/ColorField'
import { FormSection, ObjectFieldset } from '../controls/FormSection'
import { useShapeAt } from '../controls/use-field'

export function ColorsSection() {
  const colorsSet = useShapeAt(['colors']) === 'object'
  const backgroundSet = useShapeAt(['colors', 'background']) === 'object'
  return (
    <FormSection
      id="colors"
      title="Colours"
      description="Hex colours of the theme, like #0D9373. Leave them all empty to keep the site’s own."
    >
      <ObjectFieldset path={['colors']} legend="Theme colours">
        <ColorField path={['colors', 'primary']} label="Primary" required={colorsSet} />
        <ColorField path={['colors', 'light']} label="Primary in dark mode" placeholder="#07C983" />
        <ColorField path={['colors', 'dark']} label="Buttons" placeholder="#0D9373" />
      </ObjectFieldset>
      <ObjectFieldset path={['colors', 'background']} legend="Background" hint="Set both, or neither.">
        <ColorField
          path={['colors', 'background', 'light']}
          label="Background in light mode"
          required={backgroundSet}
          placeholder="#FFFFFF"
        />
        <ColorField
          path={['colors', 'background', 'dark']}
          label="Background in dark mode"
          required={backgroundSet}
          placeholder="#0F1117"
        />
      </ObjectFieldset>
    </FormSection>
  )
}
