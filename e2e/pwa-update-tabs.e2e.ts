// Safe updates with TWO tabs open (issue 8): a draft typed in one tab holds the update back even when
// the other tab has nothing left to lose; once it is cleared, both tabs reload exactly once into the
// new build, and never again. Two builds (marker a and b on <html data-build>) are served in turn by a
// stack restarted on one DATA_DIR, as in pwa-update.e2e.ts.
import { rm } from 'node:fs/promises';
import { expect, test } from '@playwright/test';
import { startTestStack } from '../tests/helpers/stack.ts';
import { launchProfile, openFirstChat, ownBubble, sendFromComposer, serverCount, signInControlled } from './pwa-helpers.ts';
import { buildOf, countGateRefusals, findUpdate, gateState, noReloadPending, twoBuilds } from './pwa-update-helpers.ts';

test('with two tabs open, a draft in either holds the update back; then both reload exactly once', async () => {
  test.setTimeout(240_000);
  const { root, webA, webB, dataDir, profile } = await twoBuilds('poradna-upd2-');
  let stack = await startTestStack({ webDir: webA }, { dataDir });
  const context = await launchProfile(profile, stack.url);
  try {
    const one = context.pages()[0] ?? (await context.newPage());
    await signInControlled(one);
    const chatPath = await openFirstChat(one);
    const two = await context.newPage();
    await two.goto(chatPath);
    await expect.poll(() => two.evaluate(() => navigator.serviceWorker.controller !== null)).toBe(true);
    await expect(two.getByTestId('message').first()).toBeVisible();
    expect([await buildOf(one), await buildOf(two)]).toEqual(['a', 'a']);

    // Offline: tab one queues a message; tab two holds a half-typed draft.
    await context.setOffline(true);
    const stamp = Date.now();
    const queued = `Dve karty ${stamp}`;
    const draft = `Rozpísané v druhej karte ${stamp}`;
    await sendFromComposer(one, queued);
    await expect(ownBubble(one, queued)).toHaveAttribute('data-state', 'sending');
    const composerTwo = two.getByRole('textbox', { name: 'Správa' });
    await composerTwo.fill(draft);

    const port = stack.port;
    await stack.stop();
    stack = await startTestStack({ webDir: webB, port }, { dataDir });

    const loads = { one: 0, two: 0 };
    one.on('load', () => loads.one++);
    two.on('load', () => loads.two++);
    await context.setOffline(false);
    await findUpdate(one);

    // Delivered once; tab one has nothing left to lose, but tab two's draft holds the update back.
    await expect(ownBubble(one, queued)).toHaveAttribute('data-state', 'sent', { timeout: 30_000 });
    await expect.poll(() => serverCount(stack.url, queued, stack.keys.serviceRoleKey), { timeout: 10_000 }).toBe(1);
    // Two rechecks of the update gate after the delivery, each held back by tab two's answer.
    const refusals = await countGateRefusals(one);
    await expect(async () => {
      const n = await refusals();
      if (n < 2) throw new Error(`${n} refusals so far; tab one's ${await gateState(one)}`);
    }).toPass({ timeout: 30_000 });
    expect(loads).toEqual({ one: 0, two: 0 });
    expect([await buildOf(one), await buildOf(two)]).toEqual(['a', 'a']);
    await expect(composerTwo).toHaveValue(draft);

    // Clearing the draft lets the waiting version activate: each tab reloads once into build b.
    const heldBefore = await refusals();
    await composerTwo.fill('');
    // Tab one's reload failed to come in 30 s once (a full run beside other work, 2026-11-30; passed on
    // the retry): the failure now says whether tab two still refused, or never answered, and what
    // either gate sees.
    await expect(async () => {
      const build = await buildOf(one);
      if (build === 'b') return;
      const held = await refusals().catch(() => -1);
      throw new Error(
        `tab one on build '${build}'; refusals ${held} (${heldBefore} before the clear); ` +
          `tab one's ${await gateState(one)}; tab two's ${await gateState(two)}; ` +
          `tab two's composer '${await composerTwo.inputValue().catch(() => '?')}'`,
      );
    }).toPass({ timeout: 30_000 });
    await expect.poll(() => buildOf(two), { timeout: 30_000 }).toBe('b');
    // The new document can be read (build b) before its load event reaches Playwright's listeners:
    // wait for that event, not the same instant (once 0 on a loaded machine, session 48).
    await expect.poll(() => ({ ...loads }), { timeout: 20_000 }).toEqual({ one: 1, two: 1 });
    // No reload loop in either tab: nothing is left that could reload them.
    await noReloadPending(one);
    await noReloadPending(two);
    expect(loads).toEqual({ one: 1, two: 1 });
    expect(await serverCount(stack.url, queued, stack.keys.serviceRoleKey)).toBe(1);
    await expect(ownBubble(one, queued)).toHaveCount(1);
    await expect(ownBubble(two, queued)).toHaveCount(1);
  } finally {
    await context.close();
    await stack.stop();
    await rm(root, { recursive: true, force: true });
  }
});
