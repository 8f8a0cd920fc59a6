// Unread badge text: nothing for 0, the number up to 99, then '99+' (user-area.md section 9).
export const UNREAD_CAP = 99;

export function unreadLabel(count: number): string | null {
  if (!Number.isFinite(count) || count <= 0) return null;
  return count > UNREAD_CAP ? `${UNREAD_CAP}+` : String(Math.floor(count));
}
