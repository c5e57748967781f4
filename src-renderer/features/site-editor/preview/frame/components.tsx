import { Children, isValidElement, type ReactElement, type ReactNode, useId, useState } from 'react'
import { Icon } from './icons'

// The components Mintlify pages use, drawn as a Mintlify site draws them. They receive only what
// the sanitizer let through: strings, numbers and booleans as props, and already-safe children.

type Props = Record<string, unknown> & { children?: ReactNode }
const str = (value: unknown) => (typeof value === 'string' ? value : typeof value === 'number' ? String(value) : '')
const flag = (value: unknown) => value === true || value === 'true'

const CALLOUTS = {
  Note: { icon: 'circle-info', tone: 'note', label: 'Note' },
  Info: { icon: 'circle-info', tone: 'info', label: 'Info' },
  Tip: { icon: 'lightbulb', tone: 'tip', label: 'Tip' },
  Warning: { icon: 'triangle-exclamation', tone: 'warning', label: 'Warning' },
  Danger: { icon: 'ban', tone: 'danger', label: 'Danger' },
  Check: { icon: 'circle-check', tone: 'check', label: 'Check' },
  Callout: { icon: 'circle-info', tone: 'note', label: 'Callout' },
} as const

const callout = (kind: keyof typeof CALLOUTS) =>
  function Callout({ children, icon, title }: Props) {
    const spec = CALLOUTS[kind]
    return (
      <aside className={`callout callout--${spec.tone}`} aria-label={str(title) || spec.label}>
        <Icon name={str(icon) || spec.icon} size={15} />
        <div className="callout__body">{children}</div>
      </aside>
    )
  }

function Card({ title, icon, href, children, horizontal, img, color, cta }: Props) {
  const body = (
    <>
      {str(img) ? <img className="card__image" src={str(img)} alt="" /> : null}
      {str(icon) ? (
        <span className="card__icon">
          <Icon name={str(icon)} size={20} color={str(color) || undefined} />
        </span>
      ) : null}
      <span className="card__text">
        {str(title) ? <span className="card__title">{str(title)}</span> : null}
        <span className="card__content">{children}</span>
        {str(cta) ? <span className="card__cta">{str(cta)} →</span> : null}
      </span>
    </>
  )
  const className = `card${flag(horizontal) ? ' card--horizontal' : ''}${str(href) ? ' card--link' : ''}`
  return str(href) ? (
    <a className={className} href={str(href)}>
      {body}
    </a>
  ) : (
    <div className={className}>{body}</div>
  )
}

function Grid({ cols, children }: Props) {
  const count = Math.min(4, Math.max(1, Number(cols) || 2))
  return <div className={`card-group card-group--${count}`}>{children}</div>
}

function Steps({ children }: Props) {
  return <ol className="steps">{children}</ol>
}

function Step({ title, children, icon }: Props) {
  return (
    <li className="step">
      <span className="step__marker" aria-hidden="true">
        {str(icon) ? <Icon name={str(icon)} size={12} /> : null}
      </span>
      <div className="step__body">
        {str(title) ? <p className="step__title">{str(title)}</p> : null}
        {children}
      </div>
    </li>
  )
}

/** The children that are elements, each with its props (a Tab, a code block). */
const elementsOf = (children: ReactNode) => Children.toArray(children).filter(isValidElement) as ReactElement<Props>[]

function TabSet({ labels, panels, className }: { labels: string[]; panels: ReactNode[]; className: string }) {
  const [selected, setSelected] = useState(0)
  const id = useId()
  const current = Math.min(selected, panels.length - 1)
  return (
    <div className={className}>
      <div className={`${className}__list`} role="tablist">
        {labels.map((label, index) => (
          <button
            key={index}
            type="button"
            role="tab"
            id={`${id}-tab-${index}`}
            aria-selected={index === current}
            aria-controls={`${id}-panel`}
            tabIndex={index === current ? 0 : -1}
            className={`${className}__tab`}
            onClick={() => setSelected(index)}
          >
            {label}
          </button>
        ))}
      </div>
      <div className={`${className}__panel`} role="tabpanel" id={`${id}-panel`} aria-labelledby={`${id}-tab-${current}`}>
        {panels[current]}
      </div>
    </div>
  )
}

function Tabs({ children }: Props) {
  const tabs = elementsOf(children)
  return (
    <TabSet
      className="tabs"
      labels={tabs.map((tab, index) => str(tab.props.title) || `Tab ${index + 1}`)}
      panels={tabs.map((tab) => tab.props.children)}
    />
  )
}

const Tab = ({ children }: Props) => <>{children}</>

/** Code blocks side by side, one shown at a time: a title each (```js index.js), else their language. */
function CodeGroup({ children }: Props) {
  const blocks = elementsOf(children)
  const labels = blocks.map((block, index) => {
    const props = block.props as Props
    return str(props['data-title']) || str(props.dataTitle) || str(props['data-language']) || str(props.dataLanguage) || `Code ${index + 1}`
  })
  return <TabSet className="code-group" labels={labels} panels={blocks} />
}

function Accordion({ title, description, children, defaultOpen, icon }: Props) {
  return (
    <details className="accordion" open={flag(defaultOpen)}>
      <summary className="accordion__summary">
        {str(icon) ? <Icon name={str(icon)} size={14} /> : null}
        <span>
          <span className="accordion__title">{str(title) || 'Details'}</span>
          {str(description) ? <span className="accordion__description">{str(description)}</span> : null}
        </span>
      </summary>
      <div className="accordion__body">{children}</div>
    </details>
  )
}

const AccordionGroup = ({ children }: Props) => <div className="accordion-group">{children}</div>

function Frame({ caption, children }: Props) {
  return (
    <figure className="frame">
      <div className="frame__inner">{children}</div>
      {str(caption) ? <figcaption className="frame__caption">{str(caption)}</figcaption> : null}
    </figure>
  )
}

const IconComponent = ({ icon, size, color }: Props) => <Icon name={str(icon)} size={Number(size) || 16} color={str(color) || undefined} />

function Field({ children, ...props }: Props & { kind: 'param' | 'response' }) {
  const location = ['path', 'query', 'body', 'header'].find((key) => str(props[key]))
  const name = location ? str(props[location]) : str(props.fieldName)
  return (
    <div className="field">
      <div className="field__head">
        <code className="field__name">{name}</code>
        {str(props.type) ? <span className="field__type">{str(props.type)}</span> : null}
        {location && props.kind === 'param' ? <span className="field__type">{location}</span> : null}
        {flag(props.required) ? <span className="field__required">required</span> : null}
        {flag(props.deprecated) ? <span className="field__deprecated">deprecated</span> : null}
        {str(props.default) ? <span className="field__default">default: {str(props.default)}</span> : null}
      </div>
      <div className="field__body">{children}</div>
    </div>
  )
}

function Expandable({ title, children, defaultOpen }: Props) {
  return (
    <details className="expandable" open={flag(defaultOpen)}>
      <summary>{`Show ${str(title) || 'properties'}`}</summary>
      <div className="expandable__body">{children}</div>
    </details>
  )
}

const Tooltip = ({ tip, children }: Props) => (
  <span className="tooltip" tabIndex={0} data-tip={str(tip)}>
    {children}
    <span className="tooltip__tip" role="tooltip">
      {str(tip)}
    </span>
  </span>
)

function Update({ label, description, children }: Props) {
  return (
    <section className="update">
      <div className="update__meta">
        <span className="update__label">{str(label)}</span>
        {str(description) ? <span className="update__description">{str(description)}</span> : null}
      </div>
      <div className="update__body">{children}</div>
    </section>
  )
}

const Badge = ({ children }: Props) => <span className="badge">{children}</span>

export const COMPONENT_VIEWS = {
  Note: callout('Note'),
  Info: callout('Info'),
  Tip: callout('Tip'),
  Warning: callout('Warning'),
  Danger: callout('Danger'),
  Check: callout('Check'),
  Callout: callout('Callout'),
  Card,
  CardGroup: Grid,
  Columns: Grid,
  Column: ({ children }: Props) => <div>{children}</div>,
  Steps,
  Step,
  Tabs,
  Tab,
  Accordion,
  AccordionGroup,
  CodeGroup,
  RequestExample: CodeGroup,
  ResponseExample: CodeGroup,
  Frame,
  Icon: IconComponent,
  ParamField: (props: Props) => <Field {...props} kind="param" />,
  ResponseField: (props: Props) => <Field {...props} kind="response" />,
  Expandable,
  Tooltip,
  Update,
  Badge,
}
