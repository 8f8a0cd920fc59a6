// The admin area's two date formats (admin-area.md section 9), Slovak locale.
import { format } from 'date-fns';
import { sk } from 'date-fns/locale';

function valid(value: string | null | undefined): Date | null {
  if (!value) return null;
  const d = new Date(value);
  return Number.isNaN(d.getTime()) ? null : d;
}

/** dd.MM.yyyy HH:mm, or null when there is no date. */
export function formatDateTime(value: string | null | undefined): string | null {
  const d = valid(value);
  return d ? format(d, 'dd.MM.yyyy HH:mm', { locale: sk }) : null;
}

/** dd.MM.yyyy, or null when there is no date. */
export function formatDate(value: string | null | undefined): string | null {
  const d = valid(value);
  return d ? format(d, 'dd.MM.yyyy', { locale: sk }) : null;
}
