// Lighthouse guard (issue 8): on the mobile preset, /auth/login (a first visit) and /app/chats (the
// signed-in demo member) score 100 for accessibility and at least 95 for best practices. Performance
// is a timing goal and lives in bench/lighthouse.ts, not here. Chromium runs on its own profile and
// debugging port (scripts/lighthouse/browser.ts), so Lighthouse sees the page exactly as a user would.
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { expect, test } from '@playwright/test';
import { withChromium } from '../scripts/lighthouse/browser.ts';
import { runLighthouse } from '../scripts/lighthouse/run.ts';

test('accessibility 100 and best practices ≥ 95 on /auth/login and /app/chats (mobile)', async ({ baseURL }) => {
  // The scores are the property, never the time: Lighthouse is CPU-bound in its own Chromium and its
  // own Node work, so its time follows the machine's load. Alone it takes ~15 s, beside CI's other
  // journeys and Vitest 120–143 s, and session 46's run went past 150 s twice (the retry's trace:
  // Chromium 4 s, /auth/login's Lighthouse 41 s, the sign-in and first sync 32 s, /app/chats'
  // Lighthouse still running after 69 s; ~12 and ~21 s for the two beside a lighter load). Each
  // phase's time is printed, so a slow run shows which.
  test.setTimeout(300_000);
  const profile = await mkdtemp(join(tmpdir(), 'poradna-lh-e2e-'));
  const started = Date.now();
  const phase = (what: string) => console.log(`lighthouse journey: ${what} at ${((Date.now() - started) / 1000).toFixed(1)} s`);
  try {
    const rows = await withChromium(baseURL!, profile, async (browser) => {
      phase('Chromium started');
      const out = [];
      for (const page of ['/auth/login', '/app/chats']) {
        const signedIn = page === '/app/chats';
        if (signedIn) await browser.signIn();
        else await browser.signOut();
        phase(`${signedIn ? 'signed in' : 'signed out'} for ${page}`);
        const { row } = await runLighthouse(`${baseURL}${page}`, browser.port, 'mobile', {
          keepStorage: signedIn,
          categories: ['accessibility', 'best-practices'],
        });
        phase(`${page} measured`);
        out.push(row);
      }
      return out;
    });
    const scores = rows.map((r) => ({
      page: r.page,
      landedOn: new URL(r.finalUrl).pathname,
      accessibility: r.accessibility,
      bestPractices: r.bestPractices,
      failing: [...(r.failing['accessibility'] ?? []), ...(r.failing['best-practices'] ?? [])],
    }));
    for (const s of scores) {
      expect.soft(s.landedOn, `${s.page} measured signed out/in as intended`).toBe(s.page);
      expect.soft(s.accessibility, `${s.page} accessibility; failing: ${s.failing.join(', ')}`).toBe(100);
      expect.soft(s.bestPractices, `${s.page} best practices; failing: ${s.failing.join(', ')}`).toBeGreaterThanOrEqual(95);
    }
  } finally {
    await rm(profile, { recursive: true, force: true });
  }
});
