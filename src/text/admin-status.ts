// Texts of the admin area's load states (ours; issue 21 admin item 2). Kept apart from admin.ts because
// the super-admin guard shows the offline notice before the admin chunk (never precached) can load.
export const adminStatus = {
  offlineTitle: 'Admin sekcia potrebuje pripojenie',
  offlineText: 'Ste offline. Správa účtov a testy pracujú priamo so serverom — po pripojení sa stránka načíta sama.',
  failedTitle: 'Údaje sa nepodarilo načítať',
  retry: 'Skúsiť znova',
} as const;
