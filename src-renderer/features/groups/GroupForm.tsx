import { type FormEvent, useMemo } from 'react'
import { z } from 'zod'
import { type GetOrCreateRequest, MappingSchema, PropertiesSchema, userGroupIdProblem } from '../../../src-shared/user-api/schemas'
import { Field } from '../../ui/Field'
import { JsonEditor } from '../../ui/json-editor/JsonEditor'
import { type GroupFields, useWorkspace } from './group-form-state'
import { readJsonField } from './json-field'

// Derived once from the shared zod schemas: Monaco validates exactly what the client will.
const mappingJsonSchema = z.toJSONSchema(MappingSchema)
const propertiesJsonSchema = z.toJSONSchema(PropertiesSchema)

const isMac = typeof navigator !== 'undefined' && /Mac/.test(navigator.platform)

/** Monaco's tab-focus mode is on in these small editors: say how to type a tab anyway. */
const EDITOR_KEYS = `Tab moves to the next field (${isMac ? 'Ctrl+Shift+M' : 'Ctrl+M'} to type tabs instead); ${isMac ? '⌘' : 'Ctrl'}+Enter sends.`

export interface GroupFormProps {
  /** The profile the form belongs to: its fields are that profile's own. */
  profileId: string
  /** The profile's name, which the send button says: where the request goes. */
  destination: string
  /** The profile writes to production: the send button is production's red, not the usual blue. */
  production: boolean
  operation: 'getOrCreate' | 'update'
  /** Why the form cannot be sent right now (no profile, a call in flight), or null. */
  blockedReason: string | null
  knownGroup: boolean
  onFillFromCatalog(): void
  onSubmit(request: GetOrCreateRequest): void
}

/** Builds the request from the fields, sending only what the operator gave, or says why not. */
function useGroupRequest(fields: GroupFields): { request: GetOrCreateRequest | null; problems: string[] } {
  return useMemo(() => {
    const problems: string[] = []
    const mapping = readJsonField(fields.mappingText, MappingSchema, 'mapping')
    const properties = readJsonField(fields.propertiesText, PropertiesSchema, 'properties')
    const idProblem = fields.userGroupId.trim() ? userGroupIdProblem(fields.userGroupId) : 'Enter a user_group_id.'
    if (idProblem) problems.push(idProblem)
    if (mapping.state === 'invalid') problems.push(mapping.reason)
    if (properties.state === 'invalid') problems.push(properties.reason)
    if (problems.length) return { request: null, problems }
    const request: GetOrCreateRequest = { user_group_id: fields.userGroupId }
    if (fields.name.trim()) request.name = fields.name
    if (mapping.state === 'valid') request.mapping = mapping.value
    if (properties.state === 'valid') request.properties = properties.value
    return { request, problems }
  }, [fields])
}

export function GroupForm({
  profileId,
  destination,
  production,
  operation,
  blockedReason,
  knownGroup,
  onFillFromCatalog,
  onSubmit,
}: GroupFormProps) {
  const { fields, setField } = useWorkspace(profileId)
  const { request, problems } = useGroupRequest(fields)
  const mappingProblem = problems.find((problem) => problem.startsWith('mapping'))
  const propertiesProblem = problems.find((problem) => problem.startsWith('properties'))
  const idProblem = problems.find((problem) => problem.startsWith('user_group_id'))
  const reason = blockedReason ?? problems[0] ?? null
  const submitLabel = `${operation === 'getOrCreate' ? 'Get or create' : 'Update'} in ${destination}`

  const submit = (event?: FormEvent) => {
    event?.preventDefault()
    if (request && !reason) onSubmit(request)
  }

  return (
    <form
      className="stack"
      aria-label={operation === 'getOrCreate' ? 'Get or create a group' : 'Update a group'}
      onSubmit={submit}
      onKeyDown={(event) => {
        if (event.key === 'Enter' && (event.ctrlKey || event.metaKey)) submit(event)
      }}
    >
      <div className="form-grid">
        <Field label="user_group_id" required hint="The id you use for this group in your own database." error={idProblem}>
          <input
            type="text"
            autoComplete="off"
            spellCheck={false}
            value={fields.userGroupId}
            onChange={(event) => setField('userGroupId', event.target.value)}
          />
        </Field>
        <Field label="name" hint={operation === 'update' ? 'Left empty, the name is not changed.' : 'Optional.'}>
          <input type="text" autoComplete="off" value={fields.name} onChange={(event) => setField('name', event.target.value)} />
        </Field>
      </div>
      {knownGroup && operation === 'update' ? (
        <p className="callout">
          This group is in the catalog.{' '}
          <button type="button" className="btn btn--small" onClick={onFillFromCatalog}>
            Fill from catalog
          </button>
        </p>
      ) : null}
      <Field
        label="mapping"
        hint={`Schema id → data source, both strings. Left empty, it is not sent. ${EDITOR_KEYS}`}
        error={mappingProblem}
      >
        <JsonEditor
          deferUntilUsed
          tabMovesFocus
          path={`${profileId}/${operation}-mapping.json`}
          ariaLabel="mapping (JSON)"
          value={fields.mappingText}
          onChange={(value) => setField('mappingText', value)}
          schema={mappingJsonSchema}
          onSubmitShortcut={() => submit()}
          height={120}
        />
      </Field>
      <Field
        label="properties"
        hint={`Any JSON object; available as variables in dashboards. Left empty, it is not sent. ${EDITOR_KEYS}`}
        error={propertiesProblem}
      >
        <JsonEditor
          deferUntilUsed
          tabMovesFocus
          path={`${profileId}/${operation}-properties.json`}
          ariaLabel="properties (JSON)"
          value={fields.propertiesText}
          onChange={(value) => setField('propertiesText', value)}
          schema={propertiesJsonSchema}
          onSubmitShortcut={() => submit()}
          height={160}
        />
      </Field>
      <div className="row">
        <button
          type="submit"
          className={production ? 'btn btn--production' : 'btn btn--primary'}
          disabled={reason !== null}
          aria-describedby="group-submit-reason"
        >
          {submitLabel}
        </button>
        <span id="group-submit-reason" className={reason ? 'submit-reason' : 'muted'}>
          {reason ?? 'Ctrl+Enter sends.'}
        </span>
      </div>
    </form>
  )
}
