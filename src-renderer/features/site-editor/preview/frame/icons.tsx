import { fab } from '@fortawesome/free-brands-svg-icons'
import type { IconDefinition } from '@fortawesome/free-solid-svg-icons'
import { fas } from '@fortawesome/free-solid-svg-icons'

// Mintlify names icons by Font Awesome's names ("rocket", "book-open", "github"), its default
// library: the free solid and brand sets are bundled with the frame, so icons show offline.

let byName: Map<string, IconDefinition> | null = null

function lookup(name: string): IconDefinition | undefined {
  if (!byName) {
    byName = new Map()
    for (const icon of [...Object.values(fab), ...Object.values(fas)]) {
      byName.set(icon.iconName, icon)
      for (const alias of icon.icon[2]) if (typeof alias === 'string' && !byName.has(alias)) byName.set(alias, icon)
    }
  }
  return byName.get(name.replace(/^(fa-|brand-)/, ''))
}

/** An icon by its Font Awesome name; an unknown name (or a URL, which the preview never loads) shows a dot. */
export function Icon({
  name,
  size = 16,
  color,
  label,
}: {
  name: string | null | undefined
  size?: number
  color?: string
  label?: string
}) {
  const icon = name ? lookup(name) : undefined
  if (!icon)
    return (
      <span className="icon icon--unknown" style={{ width: size, height: size }} aria-hidden={label ? undefined : true} title={label} />
    )
  const [width, height, , , path] = icon.icon
  return (
    <svg
      className="icon"
      viewBox={`0 0 ${width} ${height}`}
      width={size}
      height={size}
      fill={color ?? 'currentColor'}
      role={label ? 'img' : undefined}
      aria-label={label}
      aria-hidden={label ? undefined : true}
      focusable="false"
    >
      {(Array.isArray(path) ? path : [path]).map((d, index) => (
        <path key={index} d={d} />
      ))}
    </svg>
  )
}
