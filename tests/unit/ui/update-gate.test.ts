// @vitest-environment jsdom
// The service-worker update waits while anything would be lost to a reload: queued outbox entries
// (a blocker the sync provider registers), a half-typed draft, or files waiting in a composer's tray.
import { afterEach, describe, expect, it } from 'vitest';
import { forgetComposer, hasAnyDraft, noteComposer, noteTray, trackSave } from '../../../src/pages/chat/drafts.ts';
import { registerUpdateBlocker, updateIsSafe } from '../../../src/pwa/update-gate.ts';

const cleanups: (() => void)[] = [];
afterEach(() => {
  for (const c of cleanups.splice(0)) c();
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

  it('blocks while an open composer holds text (issue 40: a closed one is safe in IndexedDB)', async () => {
    cleanups.push(registerUpdateBlocker(hasAnyDraft));
    noteComposer('c1', 'Rozpísaná správa');
    expect(await updateIsSafe()).toBe(false);
    noteComposer('c1', '');
    expect(await updateIsSafe()).toBe(true);
    noteComposer('c2', 'Koncept');
    forgetComposer('c2');
    expect(await updateIsSafe()).toBe(true);
  });

  it('blocks while files not kept yet wait in a tray (R16.5: only those live in the page alone), also with no text', async () => {
    cleanups.push(registerUpdateBlocker(hasAnyDraft));
    noteTray('c1', 2);
    expect(await updateIsSafe()).toBe(false);
    noteTray('c1', 1);
    expect(await updateIsSafe()).toBe(false);
    noteTray('c1', 0);
    expect(await updateIsSafe()).toBe(true);
  });

  it("blocks while a draft's save has not committed", async () => {
    cleanups.push(registerUpdateBlocker(hasAnyDraft));
    let commit = () => {};
    const saved = trackSave(new Promise<void>((r) => (commit = r)));
    expect(await updateIsSafe()).toBe(false);
    commit();
    await saved;
    expect(await updateIsSafe()).toBe(true);
  });
});
