import { FeedbackSchema, ModeToggleSchema } from '../../../../../src-shared/site-config/mint-schema'
import { ChoiceField, choicesOf, YES_NO } from '../controls/ChoiceField'
import { FormSection, ObjectFieldset } from '../controls/FormSection'
import { meaningOf, unsetLabelOf } from '../schema-hints'

export function FeedbackSection() {
  return (
    <FormSection id="feedback" title="Feedback and display">
      <ObjectFieldset path={['feedback']} legend="Feedback buttons">
        <ChoiceField
          path={['feedback', 'suggestEdit']}
          label="Suggest an edit"
          choices={YES_NO}
          unsetLabel={unsetLabelOf(FeedbackSchema.shape.suggestEdit)}
          hint={meaningOf(FeedbackSchema.shape.suggestEdit)}
        />
        <ChoiceField
          path={['feedback', 'raiseIssue']}
          label="Raise an issue"
          choices={YES_NO}
          unsetLabel={unsetLabelOf(FeedbackSchema.shape.raiseIssue)}
          hint={meaningOf(FeedbackSchema.shape.raiseIssue)}
        />
      </ObjectFieldset>
      <ObjectFieldset path={['modeToggle']} legend="Dark and light mode">
        <ChoiceField
          path={['modeToggle', 'default']}
          label="Mode for new readers"
          choices={choicesOf(ModeToggleSchema.shape.default.unwrap().options)}
          unsetLabel="Not set (follows the operating system)"
        />
        <ChoiceField
          path={['modeToggle', 'isHidden']}
          label="Hide the toggle"
          choices={YES_NO}
          unsetLabel={unsetLabelOf(ModeToggleSchema.shape.isHidden)}
          hint={meaningOf(ModeToggleSchema.shape.isHidden)}
        />
      </ObjectFieldset>
    </FormSection>
  )
}
