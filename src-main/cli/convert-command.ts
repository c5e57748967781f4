import { resolve } from 'node:path'
import { parseArgs } from 'node:util'
import { messageOf } from '../../src-shared/ipc/error-message'
import { detectConfigFormat } from '../../src-shared/site-config/config-format'
import { type ConversionNote, convertMintToDocs } from '../../src-shared/site-config/convert-mint'
import { checkDocsConfig } from '../../src-shared/site-config/docs-validate'
import { MAX_SITE_FILE_CHARACTERS } from '../../src-shared/site-config/file-limits'
import { parseJsonText } from '../../src-shared/site-config/json-text'
import { isPlainObject } from '../../src-shared/site-config/mint-schema'
import { plural } from '../../src-shared/text/plural'
import { currentVersion, readRegularFile, writeTextAtomically } from '../user-files/file-access'
import { type CliIo, type Command, printJson, UsageError } from './usage'

interface ConvertResult {
  out: string | null
  docs: unknown
  changed: ConversionNote[]
  dropped: ConversionNote[]
}

/**
 * `embed-console convert FILE [--out FILE] [--force] [--json]`: a mint.json (or site.json) as a
 * docs.json that Mintlify's rules accept, to stdout or written atomically to --out (an existing
 * file only with --force, never the file read). Every setting it could not carry, and every one
 * carried with a change, is printed by its key with why, on stderr. Exit 0 converted, 1 the result
 * would not be a valid docs.json or could not be written (nothing is written then), 2 bad usage or
 * a file that cannot be read or is not a mint.json.
 */
export async function runConvert(argv: string[], io: CliIo): Promise<number> {
  const { values, positionals } = parseArgs({
    args: argv,
    options: { out: { type: 'string' }, force: { type: 'boolean', default: false }, json: { type: 'boolean', default: false } },
    allowPositionals: true,
    strict: true,
  })
  if (positionals.length !== 1) throw new UsageError('Name one mint.json (or site.json) file to convert.')
  if (values.out === '') throw new UsageError('--out takes a file name, such as docs/docs.json.')
  const [file] = positionals as [string]
  const fail = (code: number, errorCode: 'invalid_input' | 'invalid_config' | 'file_io' | 'conflict', message: string) => {
    if (values.json) printJson(io, { ok: false, error: { code: errorCode, message } })
    else io.stderr(message)
    return code
  }

  let text: string
  try {
    text = (await readRegularFile(file, MAX_SITE_FILE_CHARACTERS)).bytes.toString('utf8').replace(/^\uFEFF/, '')
  } catch (error) {
    return fail(2, 'file_io', `${file} cannot be read: ${messageOf(error)}`)
  }
  // JSON.parse for the value; the converter parses the text once more, for where each value is written.
  const read = parseJsonText(text)
  if (!read.ok)
    return fail(
      2,
      'invalid_config',
      `${file} is not valid JSON at line ${read.error.line}, column ${read.error.column}: fix it before converting.`,
    )
  if (!isPlainObject(read.value)) return fail(2, 'invalid_config', `${file} does not hold a JSON object, so it is not a mint.json.`)
  if (detectConfigFormat(read.value, file) === 'docs')
    return fail(2, 'invalid_config', `${file} is a docs.json already: there is nothing to convert.`)

  const out = values.out === undefined ? null : resolve(values.out)
  if (out === resolve(file))
    return fail(
      2,
      'invalid_input',
      `--out names the file being converted: write the docs.json beside it instead, such as ${resolve(file, '..', 'docs.json')}.`,
    )
  const conversion = convertMintToDocs(text, read.value)
  const check = checkDocsConfig(conversion.value)
  if (!check.valid) {
    const problems = check.errors.map((problem) => `  ${problem.path}: ${problem.message}`).join('\n')
    return fail(
      1,
      'invalid_config',
      `The docs.json made from ${file} would not pass Mintlify's rules, so nothing was written:\n${problems}\nFix these in ${file} (embed-console validate shows them too) and convert again.`,
    )
  }

  if (out !== null) {
    if (!values.force && (await currentVersion(out)))
      return fail(1, 'conflict', `${values.out} already exists: nothing was written. Add --force to replace it.`)
    try {
      await writeTextAtomically(out, conversion.text)
    } catch (error) {
      return fail(1, 'file_io', `${values.out} could not be written: ${messageOf(error)}. Nothing was changed.`)
    }
  }

  const result: ConvertResult = { out, docs: conversion.value, changed: conversion.changed, dropped: conversion.dropped }
  if (values.json) {
    printJson(io, { ok: true, value: result })
    return 0
  }
  if (out === null) io.stdout(conversion.text.replace(/\r?\n$/, ''))
  for (const note of conversion.changed) io.stderr(`changed: ${note.path}: ${note.message}`)
  for (const note of conversion.dropped) io.stderr(`not carried: ${note.path}: ${note.message}`)
  const summary = `${plural(conversion.dropped.length, 'setting')} not carried, ${conversion.changed.length} carried with a change.`
  io.stderr(out === null ? summary : `Wrote ${values.out}: ${summary}`)
  return 0
}

export const convertCommand: Command = {
  name: 'convert',
  usage: 'embed-console convert FILE [--out FILE] [--force] [--json]',
  examples: [
    'embed-console convert mint.json --out docs.json',
    'embed-console convert docs/mint.json > docs/docs.json',
    'embed-console convert --json mint.json',
  ],
  exitCodes: [
    [0, 'converted: each setting not carried is named on stderr'],
    [1, 'the result would not be a valid docs.json, --out exists (without --force), or it could not be written: nothing written'],
    [2, 'bad usage, a file that cannot be read, or one that is not a mint.json'],
  ],
  run: runConvert,
}
