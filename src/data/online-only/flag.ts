// The benchmark baseline (bench/README.md): `VITE_ONLINE_ONLY=1 vite build` makes a build whose chat
// list and chat screens fetch from the server each time they open, as the online-only product of the
// spec did, and keep nothing in IndexedDB. Vite replaces the expression with a constant, so the
// default build drops every online-only module (checked by bench/check-online-only.ts).
export const ONLINE_ONLY: boolean = import.meta.env.VITE_ONLINE_ONLY === '1';
