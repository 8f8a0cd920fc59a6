// File-card sizes in B, KB or MB (1024-based), or 'Neznáma veľkosť' when the size is unknown.
import { sk } from '../text/sk.ts';

const decimal = new Intl.NumberFormat('sk-SK', { maximumFractionDigits: 1 });

export function formatFileSize(bytes: number | null | undefined): string {
  if (bytes === null || bytes === undefined || !Number.isFinite(bytes) || bytes < 0) return sk.files.unknownSize;
  if (bytes < 1024) return `${Math.round(bytes)} B`;
  if (bytes < 1024 * 1024) return `${decimal.format(bytes / 1024)} KB`;
  return `${decimal.format(bytes / (1024 * 1024))} MB`;
}
