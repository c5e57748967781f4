/** One of the activity filters' choices (operation, outcome): "Any" first, then each option by its label. */
export function FilterSelect<Option extends string>({
  label,
  value,
  options,
  labels,
  onChange,
}: {
  label: string
  value: Option | ''
  options: readonly Option[]
  labels: Record<Option, string>
  onChange(value: Option | ''): void
}) {
  return (
    <label className="inline-field">
      {label}
      <select value={value} onChange={(event) => onChange(event.target.value as Option | '')}>
        <option value="">Any</option>
        {options.map((option) => (
          <option key={option} value={option}>
            {labels[option]}
          </option>
        ))}
      </select>
    </label>
  )
}
