// Rows 1 and 2: warm opens by full navigation, Poradňa (A) and the online-only baseline (B)
// interleaved, to the first conversation row painted (row 1) and to the last message of a
// 1,000-message chat painted (row 2). Offline the baseline cannot open at all, so its offline
// figure is its best case instead: loopback with no throttling.
import { openAndMark, setProfile, type Client, type Profile } from './browser.ts';
import { paired } from './stats.ts';
import type { BenchRow } from './table.ts';

async function pairs(a: Client, b: Client, path: (c: Client) => string, mark: string, profileA: Profile, profileB: Profile, runs: number) {
  const out: { a: number; b: number }[] = [];
  for (let i = 0; i < runs; i++) {
    await setProfile(a, profileA);
    const ta = await openAndMark(a, path(a), mark);
    await setProfile(a, 'loopback');
    await setProfile(b, profileB);
    const tb = await openAndMark(b, path(b), mark);
    await setProfile(b, 'loopback');
    out.push({ a: ta, b: tb });
  }
  return paired(out);
}

export async function openRows(a: Client, b: Client, chatPath: string, runs: number, which: Set<number>): Promise<BenchRow[]> {
  const rows: BenchRow[] = [];
  // One unmeasured open each so both builds are warm (service worker, HTTP cache, compiled code).
  await openAndMark(a, '/app/chats', 'poradna:first-row');
  await openAndMark(b, '/app/chats', 'poradna:first-row');
  if (which.has(1)) {
    const off = await pairs(a, b, () => '/app/chats', 'poradna:first-row', 'offline', 'loopback', runs);
    rows.push({ row: '1a', figure: '/app/chats → first row, offline (baseline: loopback, it cannot open offline)', poradna: off.poradna, baseline: off.baseline, ratio: off.ratio, unit: 'ms', better: 'lower', goal: '≤ 200 ms', met: off.poradna <= 200 });
    const mob = await pairs(a, b, () => '/app/chats', 'poradna:first-row', 'mobile', 'mobile', runs);
    rows.push({ row: '1b', figure: '/app/chats → first row, mobile profile', poradna: mob.poradna, baseline: mob.baseline, ratio: mob.ratio, unit: 'ms', better: 'lower', goal: '≥ 20× faster (ratio ≤ 0.05)', met: mob.ratio <= 0.05 });
  }
  if (which.has(2)) {
    const off = await pairs(a, b, () => chatPath, 'poradna:last-message', 'offline', 'loopback', runs);
    rows.push({ row: '2a', figure: 'chat of 1,000 → last message, offline (baseline: loopback)', poradna: off.poradna, baseline: off.baseline, ratio: off.ratio, unit: 'ms', better: 'lower', goal: 'report', met: true });
    const mob = await pairs(a, b, () => chatPath, 'poradna:last-message', 'mobile', 'mobile', runs);
    rows.push({ row: '2b', figure: 'chat of 1,000 → last message, mobile profile', poradna: mob.poradna, baseline: mob.baseline, ratio: mob.ratio, unit: 'ms', better: 'lower', goal: 'report', met: true });
  }
  return rows;
}
