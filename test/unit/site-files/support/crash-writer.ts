import { writeTextAtomically } from '../../../../src-main/user-files/file-access'

// A child process for the crash test: saves two large site.json texts over one file, in turns,
// through the app's own write, and says "writing" just before each save so the test can kill it
// in the middle of one.
const [path, size] = [process.argv[2]!, Number(process.argv[3])]
const textOf = (name: string) => `${JSON.stringify({ name, navigation: [{ group: name, pages: [name.repeat(size)] }] }, null, 2)}\n`
const texts = [textOf('a'), textOf('b')]

for (let turn = 0; ; turn++) {
  process.stdout.write('writing\n')
  await writeTextAtomically(path, texts[turn % 2]!)
}
