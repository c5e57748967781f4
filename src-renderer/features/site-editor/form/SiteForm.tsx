import { useEditor } from '../state/editor-store'
import { fieldId } from '../state/view-store'
import { sectionHeadingId } from './controls/FormSection'
import { useShapeAt } from './controls/use-field'
import { WrongShapeNote } from './controls/WrongShapeNote'
import { AnchorsSection } from './sections/AnchorsSection'
import { ApiSection } from './sections/ApiSection'
import { ColorsSection } from './sections/ColorsSection'
import { FeedbackSection } from './sections/FeedbackSection'
import { FooterSection } from './sections/FooterSection'
import { NavigationSection } from './sections/NavigationSection'
import { ProjectSection } from './sections/ProjectSection'
import { TabsSection } from './sections/TabsSection'
import { TopbarSection } from './sections/TopbarSection'
import { VersionsSection } from './sections/VersionsSection'
import { useFocusRequests } from './use-focus-requests'

const SECTIONS = [
  { id: 'project', label: 'Project' },
  { id: 'colors', label: 'Colours' },
  { id: 'topbar', label: 'Top bar' },
  { id: 'navigation', label: 'Navigation' },
  { id: 'tabs', label: 'Tabs' },
  { id: 'anchors', label: 'Anchors' },
  { id: 'versions', label: 'Versions' },
  { id: 'api', label: 'API' },
  { id: 'footer', label: 'Footer' },
  { id: 'feedback', label: 'Feedback' },
]

/** Every setting of the spec, section by section. Read-only while the text does not parse or writes a key twice. */
export function SiteForm() {
  useFocusRequests()
  const rootShape = useShapeAt([])
  const waiting = useEditor((state) => state.syntaxError !== null || state.duplicates.length > 0)
  const documentId = useEditor((state) => state.document?.documentId)

  // A file that never parsed has no last valid version to show: the banner above says where it breaks.
  if (rootShape === 'missing') return null
  if (rootShape !== 'object') return <WrongShapeNote id={fieldId([])} what="The file" />

  return (
    <div className="site-form" inert={waiting}>
      <nav className="section-index" aria-label="Form sections">
        {SECTIONS.map((section) => (
          <button key={section.id} type="button" className="section-index__link" onClick={() => jumpTo(section.id)}>
            {section.label}
          </button>
        ))}
      </nav>
      <ProjectSection />
      <ColorsSection />
      <TopbarSection />
      {/* Keyed by document: which groups are expanded belongs to one file. */}
      <NavigationSection key={documentId} />
      <TabsSection />
      <AnchorsSection />
      <VersionsSection />
      <ApiSection />
      <FooterSection />
      <FeedbackSection />
    </div>
  )
}

/** Scrolls to a form section's heading and focuses it (the section index's links). */
export function jumpTo(section: string) {
  const heading = document.getElementById(sectionHeadingId(section))
  heading?.scrollIntoView({ block: 'start' })
  heading?.focus({ preventScroll: true })
}
