import { useEditor } from '../state/editor-store'
import { FormShell } from './FormShell'
import { NavigationSection } from './navigation/NavigationSection'
import { AnchorsSection } from './sections/AnchorsSection'
import { ApiSection } from './sections/ApiSection'
import { ColorsSection } from './sections/ColorsSection'
import { FeedbackSection } from './sections/FeedbackSection'
import { FooterSection } from './sections/FooterSection'
import { ProjectSection } from './sections/ProjectSection'
import { TabsSection } from './sections/TabsSection'
import { TopbarSection } from './sections/TopbarSection'
import { VersionsSection } from './sections/VersionsSection'

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

/**
 * Every setting of the site.json spec (docs/site-json.md), section by section. Read-only while the
 * text does not parse or writes a key twice.
 */
export function MintForm() {
  const documentId = useEditor((state) => state.document?.documentId)
  return (
    <FormShell sections={SECTIONS}>
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
    </FormShell>
  )
}
