// Counts as Slovak writes them: digits grouped by thousands with a non-breaking space ('1 240'), by
// the same Intl locale as the file sizes (file-size.ts), so a count never wraps inside its digits.
const grouped = new Intl.NumberFormat('sk-SK', { maximumFractionDigits: 0 });

export function formatCount(n: number): string {
  return grouped.format(n);
}
