import { isLoopbackUrl } from '../../../../../src-shared/net/loopback'
import { API_REFERENCE_AUTH } from '../../../../../src-shared/site-config/api-reference'
import { ApiAuthSchema, ApiSchema, MintConfigSchema } from '../../../../../src-shared/site-config/mint-schema'
import { useActiveProfile } from '../../../../lib/profiles'
import { toast } from '../../../../ui/toasts'
import { openDialog } from '../../state/dialog-store'
import { editValue } from '../../state/editor-store'
import { getIn, isObject, setIn } from '../../state/json-path'
import { ChoiceField, choicesOf, YES_NO } from '../controls/ChoiceField'
import { FormSection, ObjectFieldset } from '../controls/FormSection'
import { OneOrManyField } from '../controls/OneOrManyField'
import { TextField } from '../controls/TextField'
import { useValueAt } from '../controls/use-field'
import { meaningOf, unsetLabelOf } from '../schema-hints'

const playgroundMode = ApiSchema.shape.playground.unwrap().shape.mode

export function ApiSection() {
  const method = useValueAt(['api', 'auth', 'method'])
  return (
    <FormSection id="api" title="API" description="The API playground of the reference pages, and the OpenAPI files they are built from.">
      <UseActiveProfile />
      <OneOrManyField path={['api', 'baseUrl']} label="Base URL" noun="URL" placeholder="https://api.example.com" />
      <ObjectFieldset path={['api', 'auth']} legend="Authentication">
        <ChoiceField
          path={['api', 'auth', 'method']}
          label="Method"
          choices={choicesOf(ApiAuthSchema.shape.method.unwrap().options)}
          unsetLabel="Not set"
        />
        <TextField
          path={['api', 'auth', 'name']}
          label="Parameter name"
          placeholder={method === 'basic' ? 'username:password' : 'Authorization'}
          hint={
            method === 'basic' ? 'For basic: <usernameName>:<passwordName>.' : 'The name of the authentication parameter in the playground.'
          }
        />
        <TextField
          path={['api', 'auth', 'inputPrefix']}
          label="Input prefix"
          placeholder="Bearer "
          hint={meaningOf(ApiAuthSchema.shape.inputPrefix)}
        />
      </ObjectFieldset>
      <ObjectFieldset path={['api', 'playground']} legend="Playground">
        <ChoiceField
          path={['api', 'playground', 'mode']}
          label="Playground mode"
          choices={choicesOf(playgroundMode.unwrap().options)}
          unsetLabel={unsetLabelOf(playgroundMode)}
          hint={meaningOf(playgroundMode)}
        />
      </ObjectFieldset>
      <ChoiceField
        path={['api', 'maintainOrder']}
        label="Keep OpenAPI key order"
        choices={YES_NO}
        unsetLabel="Not set"
        hint="Key order in OpenAPI pages follows the OpenAPI file."
      />
      <OneOrManyField path={['openapi']} label="OpenAPI file" noun="file" placeholder="openapi.json" />
      <p className="field__hint">{meaningOf(MintConfigSchema.shape.openapi)}</p>
    </FormSection>
  )
}

/**
 * Points the playground at the active connection profile. Only its address and the shape of its
 * authentication cross over: the API token stays in main, and is never written to the file. A
 * loopback address (the local sandbox) is written only after saying what it means for readers,
 * and a list of base URLs is replaced or added to only as the writer chooses.
 */
function UseActiveProfile() {
  const { active } = useActiveProfile()
  const baseUrls = useValueAt(['api', 'baseUrl'])
  const fill = (baseUrl: (current: unknown) => unknown) => {
    if (!active) return
    editValue((value) => {
      const auth = getIn(value, ['api', 'auth'])
      const withUrl = setIn(value, ['api', 'baseUrl'], baseUrl(getIn(value, ['api', 'baseUrl'])))
      return setIn(withUrl, ['api', 'auth'], { ...(isObject(auth) ? auth : {}), ...API_REFERENCE_AUTH })
    })
    toast.info(`API settings filled from ${active.name}. The token itself is never written to site.json.`)
  }
  const chooseHowToFill = () => {
    if (!active) return
    const url = active.baseUrl
    if (Array.isArray(baseUrls) && baseUrls.length > 0 && !(baseUrls.length === 1 && baseUrls[0] === url)) {
      openDialog({
        kind: 'confirm',
        title: `Replace the ${baseUrls.length} base URLs?`,
        body: `The playground offers ${baseUrls.length === 1 ? 'one base URL' : `${baseUrls.length} base URLs`} to choose from. Replace the list with ${url}, or add it to the list?`,
        choices: [
          {
            label: 'Add to the list',
            run: () => fill((current) => (Array.isArray(current) ? [...current.filter((entry) => entry !== url), url] : url)),
          },
          { label: 'Replace the list', tone: 'danger', run: () => fill(() => url) },
        ],
      })
    } else fill(() => url)
  }
  const apply = () => {
    if (!active) return
    if (!isLoopbackUrl(active.baseUrl)) return chooseHowToFill()
    openDialog({
      kind: 'confirm',
      title: 'Write a local address into the site?',
      body: `${active.name} is at ${active.baseUrl}, an address only this computer can reach: readers of the published site will not reach it from the playground. Write it anyway, for a local preview?`,
      choices: [{ label: 'Write it anyway', tone: 'danger', run: chooseHowToFill }],
    })
  }
  return (
    <div className="callout use-profile">
      <span>
        {active ? (
          <>
            Fill the base URL and authentication from the active profile, <strong>{active.name}</strong>
            {isLoopbackUrl(active.baseUrl) ? ' (a local address, only for previews)' : ''}.
          </>
        ) : (
          'No connection profile is active.'
        )}
      </span>
      <button type="button" className="btn btn--small" disabled={!active} onClick={apply}>
        Use active profile
      </button>
    </div>
  )
}
