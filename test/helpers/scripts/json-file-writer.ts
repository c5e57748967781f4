// Saves one JSON file over and over with the app's writeJsonFile, printing `ack N` once save N
// has returned: the crash test kills -9 it in the middle of a save and then reads the file.
import { writeJsonFile } from '../../../src-main/storage/json-file'

const [path] = process.argv.slice(2)
// About 5 MB, so a save is written in many chunks: a kill can land between two of them.
const pages = Array.from({ length: 40_000 }, (_, index) => `page-${index}-${'x'.repeat(100)}`)
process.stdout.write(`size ${Buffer.byteLength(`${JSON.stringify({ save: 0, pages }, null, 2)}\n`)}\n`)
for (let save = 0; ; save++) {
  await writeJsonFile(path!, { save, pages })
  process.stdout.write(`ack ${save}\n`)
}
