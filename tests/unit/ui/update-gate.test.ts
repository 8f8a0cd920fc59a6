// @vitest-environment jsdom
// The service-worker update waits while anything would be lost to a reload: queued outbox entries
// (a blocker the sync provider registers) or a half-typed draft.
import { afterEach, describe, expect, it } from 'vitest';
import { hasAnyDraft, writeDraft } from '../../../src/pages/chat/drafts.ts';
import { registerUpdateBlocker, updateIsSafe } from '../../../src/pwa/update-gate.ts';

const cleanups: (() => void)[] = [];
afterEach(() => {
  for (const c of cleanups.splice(0)) c();
  sessionStorage.clear();
});

describe('update gate', () => {
  it('is safe with no blockers, and unsafe while one objects', async () => {
    expect(await updateIsSafe()).toBe(true);
    let queued = 2;
    cleanups.push(registerUpdateBlocker(async () => queued > 0));
    expect(await updateIsSafe()).toBe(false);
    queued = 0;
    expect(await updateIsSafe()).toBe(true);
  });

  it('treats a failing blocker as not safe yet', async () => {
    cleanups.push(
      registerUpdateBlocker(() => {
        throw new Error('IndexedDB closed');
      }),
    );
    expect(await updateIsSafe()).toBe(false);
  });

  it('blocks while any conversation has a draft', async () => {
    cleanups.push(registerUpdateBlocker(hasAnyDraft));
    writeDraft('u1', 'c1', 'Rozpísaná správa');
    expect(await updateIsSafe()).toBe(false);
    writeDraft('u1', 'c1', '');
    expect(await updateIsSafe()).toBe(true);
  });
});
