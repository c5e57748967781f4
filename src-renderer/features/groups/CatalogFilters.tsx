import type { CatalogQuery } from '../../../src-shared/catalog/schemas'

/** An order of the list as its select holds it: the key and the direction in one value. */
type CatalogSort = `${CatalogQuery['sortBy']}:${CatalogQuery['sortDirection']}`

/** The list's filters as the operator set them (the search as typed, before it settles). */
export interface CatalogFilterValues {
  search: string
  environment: CatalogQuery['environment']
  sort: CatalogSort
}

export const FIRST_FILTERS: CatalogFilterValues = { search: '', environment: 'all', sort: 'updatedAt:desc' }

/** The order a `CatalogSort` names, as the catalog's query takes it. */
export const sortOf = (sort: CatalogSort) => sort.split(':') as [CatalogQuery['sortBy'], CatalogQuery['sortDirection']]

interface CatalogFiltersProps {
  values: CatalogFilterValues
  /** The built-in sandbox's catalog: its groups are sandbox groups, whatever their tag. */
  sandbox: boolean
  onChange<K extends keyof CatalogFilterValues>(key: K, value: CatalogFilterValues[K]): void
}

/** The search, the environment and the order of the known groups. */
export function CatalogFilters({ values, sandbox, onChange }: CatalogFiltersProps) {
  return (
    <div className="catalog__filters">
      <input
        type="search"
        aria-label="Search groups by id or name"
        placeholder="Search id or name"
        value={values.search}
        onChange={(event) => onChange('search', event.target.value)}
      />
      <div className="row">
        <select
          aria-label="Environment"
          value={values.environment}
          onChange={(event) => onChange('environment', event.target.value as CatalogQuery['environment'])}
        >
          <option value="all">Any environment</option>
          <option value="Customer">{sandbox ? 'Sandbox (tagged Customer)' : 'Customer'}</option>
          <option value="Testing">{sandbox ? 'Sandbox (tagged Testing)' : 'Testing'}</option>
          <option value="untagged">Untagged</option>
        </select>
        <select aria-label="Sort by" value={values.sort} onChange={(event) => onChange('sort', event.target.value as CatalogSort)}>
          <option value="updatedAt:desc">Newest first</option>
          <option value="groupId:asc">Id A→Z</option>
          <option value="groupId:desc">Id Z→A</option>
          <option value="name:asc">Name A→Z</option>
          <option value="environmentTag:asc">Environment</option>
          <option value="teamId:asc">team_id</option>
        </select>
      </div>
    </div>
  )
}
