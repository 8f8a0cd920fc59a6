// Round avatar in the spec's four sizes. A failed image falls back to fallbackSrc when given, then
// to the initials of the name.
import { useState } from 'react';
import { initialsOf } from '../lib/initials.ts';

export const AVATAR_SIZES = { xs: 24, sm: 32, md: 40, lg: 48 } as const;
export type AvatarSize = keyof typeof AVATAR_SIZES;

interface AvatarProps {
  name?: string | null | undefined;
  src?: string | null | undefined;
  fallbackSrc?: string | undefined;
  size?: AvatarSize;
  className?: string;
}

export function Avatar({ name, src, fallbackSrc, size = 'md', className = '' }: AvatarProps) {
  const candidates = [src, fallbackSrc].filter((s): s is string => typeof s === 'string' && s !== '');
  const [failed, setFailed] = useState<string[]>([]);
  const current = candidates.find((c) => !failed.includes(c));
  const px = AVATAR_SIZES[size];
  const box = { width: px, height: px, fontSize: Math.round(px * 0.4) };
  const label = name?.trim() || undefined;

  if (current) {
    return (
      <img
        src={current}
        alt={label ?? ''}
        width={px}
        height={px}
        style={box}
        data-size={size}
        className={`shrink-0 rounded-full bg-slate-200 object-cover ${className}`}
        onError={() => setFailed((f) => [...f, current])}
      />
    );
  }
  return (
    <span
      role="img"
      aria-label={label}
      aria-hidden={label ? undefined : true}
      style={box}
      data-size={size}
      className={`inline-flex shrink-0 select-none items-center justify-center rounded-full bg-teal-100 font-semibold text-teal-800 ${className}`}
    >
      {initialsOf(name)}
    </span>
  );
}
