// The admin area's icons, drawn as inline SVG like the app's own (src/layout/nav-icons.tsx): emoji
// glyphs render as empty boxes on systems without an emoji font. An icon with a `label` is announced
// (role img + aria-label); without one it is decorative (aria-hidden), for use next to visible text.
const paths = {
  /** Sort: ascending (arrow up), descending (arrow down), not sorted (both, muted). */
  sortAsc: 'M12 19V5m-6 6 6-6 6 6',
  sortDesc: 'M12 5v14m-6-6 6 6 6-6',
  sortNone: 'M8 9l4-4 4 4M8 15l4 4 4-4',
  /** Statuses. */
  ok: 'M12 21a9 9 0 1 0 0-18 9 9 0 0 0 0 18zm-4-9 3 3 5-6',
  warning: 'M12 3 2 20h20L12 3zm0 6v5m0 3v.5',
  error: 'M12 21a9 9 0 1 0 0-18 9 9 0 0 0 0 18zM9 9l6 6m0-6-6 6',
  pending: 'M12 21a9 9 0 1 0 0-18 9 9 0 0 0 0 18zm0-13v4l3 2',
  idle: 'M12 21a9 9 0 1 0 0-18 9 9 0 0 0 0 18z',
  /** Actions. */
  settings:
    'M12 15a3 3 0 1 0 0-6 3 3 0 0 0 0 6zm7.4-3a7.4 7.4 0 0 0-.1-1.2l2-1.6-2-3.4-2.4 1a7 7 0 0 0-2-1.2L14.5 3h-4l-.4 2.6a7 7 0 0 0-2 1.2l-2.4-1-2 3.4 2 1.6a7.4 7.4 0 0 0 0 2.4l-2 1.6 2 3.4 2.4-1a7 7 0 0 0 2 1.2l.4 2.6h4l.4-2.6a7 7 0 0 0 2-1.2l2.4 1 2-3.4-2-1.6c.1-.4.1-.8.1-1.2z',
  impersonate: 'M10 11a4 4 0 1 0 0-8 4 4 0 0 0 0 8zm-7 9a7 7 0 0 1 11-5.7M16 17h6m-3-3 3 3-3 3',
  delete: 'M4 7h16M10 11v6m4-6v6M6 7l1 13h10l1-13M9 7V4h6v3',
  retry: 'M20 12a8 8 0 1 1-2.3-5.7M20 4v5h-5',
  offline: 'M3 3l18 18M8.5 8.6A5 5 0 0 0 6 17h11m3.2-1.8A4 4 0 0 0 17 9h-.5a6 6 0 0 0-6.2-4.4',
} as const;

export type AdminIconName = keyof typeof paths;

interface AdminIconProps {
  name: AdminIconName;
  /** Announced text; omit when the icon sits next to text saying the same. */
  label?: string;
  size?: number;
  className?: string;
}

export function AdminIcon({ name, label, size = 16, className = '' }: AdminIconProps) {
  const a11y = label ? { role: 'img', 'aria-label': label } : { 'aria-hidden': true as const };
  return (
    <svg
      {...a11y}
      data-icon={name}
      viewBox="0 0 24 24"
      width={size}
      height={size}
      fill="none"
      stroke="currentColor"
      strokeWidth="2"
      strokeLinejoin="round"
      strokeLinecap="round"
      className={`shrink-0 ${className}`}
    >
      {label && <title>{label}</title>}
      <path d={paths[name]} />
    </svg>
  );
}
