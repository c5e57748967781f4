// Monaco, bundled locally and loaded only when an editor first shows (docs/platform-notes.md): the
// tree-shakeable entry, the JSON language alone, and workers from our own origin. No CDN.
import 'monaco-editor/features/register.all'
import { loader } from '@monaco-editor/react'
import * as monaco from 'monaco-editor/editor'
import EditorWorker from 'monaco-editor/editor/editor.worker?worker'
import JsonWorker from 'monaco-editor/languages/features/json/json.worker?worker'
import { jsonDefaults } from 'monaco-editor/languages/features/json/register'

self.MonacoEnvironment = {
  getWorker: (_workerId: string, label: string) => (label === 'json' ? new JsonWorker() : new EditorWorker()),
}

loader.config({ monaco })

const schemas = new Map<string, { uri: string; fileMatch: string[]; schema: object }>()

/**
 * Monaco's JSON service takes one global list of schemas; each editor adds its own, matched to
 * its model's URI, so two editors on one screen validate against different schemas.
 */
export function registerJsonSchema(modelPath: string, schema: object): void {
  schemas.set(modelPath, { uri: `inmemory://schema/${modelPath}`, fileMatch: [modelPath], schema })
  jsonDefaults.setDiagnosticsOptions({
    validate: true,
    allowComments: false,
    trailingCommas: 'error',
    enableSchemaRequest: false,
    schemas: [...schemas.values()],
  })
}

export { monaco }
