import { siteFiles } from '../helpers'
import { saveSetOf } from './save-sets'

// A child process for the crash test of a docs.json saved with its $ref file: opens the document
// and saves both files through the app's own service, in turns between two versions whose files
// name the same marker, and says "saving" just before each save so the test can kill it mid-save.
const [dataDir, docsPath, size] = [process.argv[2]!, process.argv[3]!, Number(process.argv[4])]
const sets = [saveSetOf('a', size), saveSetOf('b', size)]

const files = siteFiles(dataDir)
const document = await files.open(docsPath)
let version = document.version!
const [nav] = await files.readRefs(document.documentId, ['nav.json'])
let navVersion = nav!.version
for (let turn = 0; ; turn++) {
  const set = sets[turn % 2]!
  process.stdout.write('saving\n')
  const saved = await files.save({
    documentId: document.documentId,
    text: set.docs,
    byteOrderMark: false,
    expectedVersion: version,
    refs: [{ ref: 'nav.json', text: set.nav, byteOrderMark: false, expectedVersion: navVersion }],
  })
  version = saved.version
  navVersion = saved.refs![0]!.version
}
