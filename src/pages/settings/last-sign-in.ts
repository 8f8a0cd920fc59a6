import { sk } from '../../text/sk.ts';

/** Last sign-in in the sk-SK date format, or 'Nedostupné'. */
export function formatLastSignIn(value: string | null | undefined): string {
  if (!value) return sk.settings.unavailable;
  const date = new Date(value);
  return Number.isNaN(date.getTime()) ? sk.settings.unavailable : date.toLocaleString('sk-SK');
}
