import { useState } from 'react'
import type { OperationView, SchemaField } from '../../../../../src-shared/site-config/openapi-operation'

// An OpenAPI operation as its generated page shows it: method and path, then the parameters by
// where they go, the request body and the responses, each a list of fields from the OpenAPI file.

function FieldRow({ field }: { field: SchemaField }) {
  return (
    <div className="field">
      <div className="field__head">
        <code className="field__name">{field.name}</code>
        <span className="field__type">{field.type}</span>
        {field.required ? <span className="field__required">required</span> : null}
        {field.deprecated ? <span className="field__deprecated">deprecated</span> : null}
        {field.defaultValue ? <span className="field__default">default: {field.defaultValue}</span> : null}
      </div>
      {field.description ? <p className="field__body">{field.description}</p> : null}
      {field.enumValues ? <p className="field__enum">One of: {field.enumValues.join(', ')}</p> : null}
      {field.children?.length ? (
        <details className="expandable">
          <summary>Show child attributes</summary>
          <div className="expandable__body">
            {field.children.map((child, index) => (
              <FieldRow key={index} field={child} />
            ))}
          </div>
        </details>
      ) : null}
    </div>
  )
}

const LOCATIONS = [
  ['header', 'Headers'],
  ['path', 'Path parameters'],
  ['query', 'Query parameters'],
  ['cookie', 'Cookies'],
] as const

export function OperationPage({ operation }: { operation: OperationView }) {
  const [status, setStatus] = useState(0)
  const response = operation.responses[Math.min(status, operation.responses.length - 1)]
  return (
    <div className="operation">
      <div className="operation__line">
        <span className={`method method--${operation.method.toLowerCase()}`}>{operation.method}</span>
        <code className="operation__path">
          {operation.servers[0] ? <span className="operation__server">{operation.servers[0]}</span> : null}
          {operation.path}
        </code>
      </div>
      {operation.deprecated ? <p className="callout callout--warning">This operation is deprecated.</p> : null}
      {LOCATIONS.map(([location, heading]) => {
        const fields = operation.parameters.filter((parameter) => parameter.location === location)
        return fields.length ? (
          <section key={location} className="operation__section">
            <h2>{heading}</h2>
            {fields.map((parameter, index) => (
              <FieldRow key={index} field={parameter.field} />
            ))}
          </section>
        ) : null
      })}
      {operation.requestBody ? (
        <section className="operation__section">
          <h2>
            Body <span className="operation__media">{operation.requestBody.contentType}</span>
          </h2>
          {operation.requestBody.fields.map((field, index) => (
            <FieldRow key={index} field={field} />
          ))}
        </section>
      ) : null}
      {operation.responses.length ? (
        <section className="operation__section">
          <h2>Response</h2>
          <div className="tabs__list" role="tablist" aria-label="Response status">
            {operation.responses.map((entry, index) => (
              <button
                key={entry.status}
                type="button"
                role="tab"
                aria-selected={entry === response}
                className="tabs__tab"
                onClick={() => setStatus(index)}
              >
                {entry.status}
              </button>
            ))}
          </div>
          {response ? (
            <div role="tabpanel" aria-label={`Response ${response.status}`}>
              {response.description ? <p>{response.description}</p> : null}
              {response.contentType ? <p className="operation__media">{response.contentType}</p> : null}
              {response.fields.map((field, index) => (
                <FieldRow key={index} field={field} />
              ))}
            </div>
          ) : null}
        </section>
      ) : null}
    </div>
  )
}
