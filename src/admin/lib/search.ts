// Case-insensitive substring search (admin-area.md section 5): an empty query matches everything.
export function matchesQuery(query: string, fields: readonly (string | number | null | undefined)[]): boolean {
  const q = query.trim().toLowerCase();
  if (q === '') return true;
  return fields.some((f) => f !== null && f !== undefined && String(f).toLowerCase().includes(q));
}
