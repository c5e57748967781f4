import type { z } from 'zod'
import type { ApiReferenceGroup } from './api-reference-pages'
import { docsRelative, forEachPage, pageKey } from './docs-files'
import { type ApiAuthSchema, isPlainObject } from './mint-schema'
import { diffValues, type JsonPath, type ValueChange } from './text-edits'

// "Add the API reference": the site.json side of it. The file itself (openapi.json, built from
// the one schema of /api/user) is written by main; this works out what the fields become, so the
// dialog can say it and the editor can apply it through the format-preserving path.

/** The file the editor writes next to site.json, and the name the `openapi` field gets. */
export const API_REFERENCE_FILE = 'openapi.json'

/**
 * How the API takes its token: an `Authorization` header reading `Token <token>`. The keys are
 * the site.json schema's own (a renamed key there stops this compiling); the token itself is
 * never written to a site.
 */
export const API_REFERENCE_AUTH = {
  method: 'key',
  name: 'Authorization',
  inputPrefix: 'Token ',
} as const satisfies Required<Pick<z.input<typeof ApiAuthSchema>, 'method' | 'name' | 'inputPrefix'>>

export interface ApiReferenceOptions {
  /** The base URL to write into `api.baseUrl`, or null to leave it as it is. */
  baseUrl: string | null
  /** When `api.baseUrl` is a list of other URLs: add this one to it, or replace the list with it. */
  list: 'add' | 'replace'
  /** The endpoint pages to list in the navigation (see api-reference-pages.ts); none when absent. */
  groups?: readonly ApiReferenceGroup[]
}

/** One field the action changes, with its value before and after, for the dialog to show. */
export interface ApiReferenceField {
  path: JsonPath
  before: unknown
  after: unknown
}

export type ApiReferencePlan =
  | { ok: true; fields: ApiReferenceField[]; changes: ValueChange[]; next: unknown }
  /** A field holds a value of the wrong type: it is shown read-only, so nothing overwrites it unasked. */
  | { ok: false; problem: string }

const isApiReferenceFile = (entry: unknown) => typeof entry === 'string' && docsRelative(entry) === API_REFERENCE_FILE

/** Whether `api.baseUrl` is a list that writing `url` would either extend or replace: the writer chooses which. */
export function baseUrlListToChoose(config: unknown, url: string): string[] | null {
  const baseUrl = isPlainObject(config) && isPlainObject(config.api) ? config.api.baseUrl : undefined
  if (!Array.isArray(baseUrl) || baseUrl.length === 0) return null
  if (baseUrl.length === 1 && baseUrl[0] === url) return null
  return baseUrl as string[]
}

function nextBaseUrl(current: unknown, url: string, list: ApiReferenceOptions['list']): unknown {
  if (!Array.isArray(current) || current.length === 0) return current === url ? current : url
  if (list === 'replace') return current.length === 1 && current[0] === url ? current : url
  return current.includes(url) ? current : [...current, url]
}

/**
 * The navigation with the endpoint pages it does not list yet: each in the group of its tag, a
 * group of that name at the top level taking them, else a new group at the end. A page listed
 * anywhere already (as "/api-reference/…" too) is not listed again.
 */
function withEndpointPages(
  config: Record<string, unknown>,
  groups: readonly ApiReferenceGroup[],
): { navigation: unknown; fields: ApiReferenceField[] } {
  const before = config.navigation
  const listed = new Set<string>()
  forEachPage(config, (page) => listed.add(pageKey(page)))
  let navigation = Array.isArray(before) ? before : []
  const fields: ApiReferenceField[] = []
  for (const group of groups) {
    const missing = group.pages.map((page) => page.page).filter((page) => !listed.has(page))
    if (missing.length === 0) continue
    const at = navigation.findIndex((entry) => isPlainObject(entry) && entry.group === group.group && Array.isArray(entry.pages))
    const index = at === -1 ? navigation.length : at
    const existing = at === -1 ? undefined : (navigation[at] as Record<string, unknown>)
    const next = existing ? { ...existing, pages: [...(existing.pages as unknown[]), ...missing] } : { group: group.group, pages: missing }
    navigation = [...navigation.slice(0, index), next, ...navigation.slice(index + 1)]
    fields.push({ path: ['navigation', index], before: existing, after: next })
  }
  return { navigation: fields.length ? navigation : before, fields }
}

/**
 * What the action makes of a site.json value: `openapi` names openapi.json (a string becomes a
 * list, a list gains it, either is left alone when it already names the file, as `./openapi.json`
 * too), `api.baseUrl` is set as chosen, and `api.auth` takes the method, name and prefix while
 * keeping its other keys. Unchanged parts keep their identity, so the changes are one per field.
 */
export function planApiReference(config: unknown, options: ApiReferenceOptions): ApiReferencePlan {
  if (!isPlainObject(config)) return { ok: false, problem: 'The file does not hold an object.' }
  const { openapi, api } = config
  if (openapi !== undefined && typeof openapi !== 'string' && !Array.isArray(openapi))
    return { ok: false, problem: 'OpenAPI file is neither a path nor a list of paths: fix it first.' }
  if (api !== undefined && !isPlainObject(api)) return { ok: false, problem: 'API is not an object: fix it first.' }
  const auth = api?.auth
  if (auth !== undefined && !isPlainObject(auth)) return { ok: false, problem: 'API › Authentication is not an object: fix it first.' }
  const baseUrl = api?.baseUrl
  if (options.baseUrl !== null && baseUrl !== undefined && typeof baseUrl !== 'string' && !Array.isArray(baseUrl))
    return { ok: false, problem: 'API › Base URL is neither a URL nor a list of URLs: fix it first.' }
  if (options.groups?.length && config.navigation !== undefined && !Array.isArray(config.navigation))
    return { ok: false, problem: 'Navigation is not a list of groups: fix it first.' }

  const nextOpenApi =
    openapi === undefined
      ? API_REFERENCE_FILE
      : typeof openapi === 'string'
        ? isApiReferenceFile(openapi)
          ? openapi
          : [openapi, API_REFERENCE_FILE]
        : openapi.some(isApiReferenceFile)
          ? openapi
          : [...openapi, API_REFERENCE_FILE]
  const nextAuth = { ...(auth ?? {}), ...API_REFERENCE_AUTH }
  const sameAuth = auth !== undefined && Object.entries(API_REFERENCE_AUTH).every(([key, value]) => auth[key] === value)
  const nextApi: Record<string, unknown> = { ...(api ?? {}) }
  if (options.baseUrl !== null) nextApi.baseUrl = nextBaseUrl(baseUrl, options.baseUrl, options.list)
  nextApi.auth = sameAuth ? auth : nextAuth
  const unchangedApi = Object.keys(nextApi).every((key) => Object.is(nextApi[key], api?.[key])) && api !== undefined
  const pages = withEndpointPages(config, options.groups ?? [])
  const next = {
    ...config,
    openapi: nextOpenApi,
    api: unchangedApi ? api : nextApi,
    ...(pages.fields.length ? { navigation: pages.navigation } : {}),
  }

  const fields: ApiReferenceField[] = [
    { path: ['openapi'], before: openapi, after: nextOpenApi },
    { path: ['api', 'baseUrl'], before: baseUrl, after: nextApi.baseUrl },
    { path: ['api', 'auth'], before: auth, after: nextApi.auth },
    ...pages.fields,
  ].filter((field) => !Object.is(field.before, field.after))
  return { ok: true, fields, changes: diffValues(config, next), next }
}
