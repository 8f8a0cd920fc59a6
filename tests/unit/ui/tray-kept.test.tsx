// @vitest-environment jsdom
// R16.5: the files in a composer's tray are kept in the account's database with their captions
// (sync/commands/draft-files.ts over fake-indexeddb): a chat closed and opened again, or a reload,
// shows them again. Only a file not kept yet (picked before the engine had loaded, or its save
// failed) lives in the page alone: it holds an update back and makes a reload ask first (drafts.ts).
import { File as NodeFile } from 'node:buffer';
import { act, cleanup, waitFor } from '@testing-library/react';
import { afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import type { SyncEngine } from '../../../sync/engine.ts';
import { hasAnyDraft } from '../../../src/pages/chat/drafts.ts';
import { freshDb } from '../sync/helpers/local-db.ts';
import { tray, trayEngine } from './tray-engine.tsx';

vi.mock('../../../src/lib/notify.ts', () => ({ toastError: vi.fn() }));

const urls = new Map<string, Blob>();
const revoked: string[] = [];
beforeAll(() => {
  let n = 0;
  URL.createObjectURL = (b: Blob | MediaSource) => {
    const url = `blob:test/${++n}`;
    urls.set(url, b as Blob);
    return url;
  };
  URL.revokeObjectURL = (url: string) => void revoked.push(url);
});
afterEach(cleanup);

// fake-indexeddb clones with Node's structuredClone, which keeps Node's File (jsdom's comes back empty).
const pdf = () => new NodeFile(['%PDF-1.4'], 'brief.pdf', { type: 'application/pdf' }) as unknown as File;
const png = () => new NodeFile([new Uint8Array([0x89, 0x50, 0x4e, 0x47])], 'snimka.png', { type: 'image/png' }) as unknown as File;
/** Whether a reload would ask first (the page's beforeunload listener cancels the event). */
const reloadAsks = () => {
  const e = new Event('beforeunload', { cancelable: true });
  window.dispatchEvent(e);
  return e.defaultPrevented;
};

/** Every write of the tray committed: nothing holds an update or asks on a reload. */
const settled = () => waitFor(() => expect(hasAnyDraft()).toBe(false));

describe('R16.5 the tray is kept in the database', () => {
  it('R16.5 a chat closed with files gets them back, captions kept; kept, they neither hold an update nor make a reload ask', async () => {
    const { db } = await freshDb();
    const engine = { current: trayEngine(db) };
    const first = tray('c1', engine);
    act(() => first.result.current.add([pdf(), png()]));
    const [brief] = first.result.current.items;
    act(() => first.result.current.setCaption(brief!.id, 'Zadanie kampane'));
    await settled();
    expect(reloadAsks()).toBe(false);
    first.unmount();

    const other = tray('c2', engine);
    await act(async () => undefined);
    expect(other.result.current.items).toEqual([]);
    other.unmount();

    const again = tray('c1', engine);
    await waitFor(() => expect(again.result.current.items).toHaveLength(2));
    expect(again.result.current.items.map((i) => [i.name, i.kind, i.caption])).toEqual([
      ['brief.pdf', 'file', 'Zadanie kampane'],
      ['snimka.png', 'image', ''],
    ]);
    const image = again.result.current.items[1]!;
    expect(new Uint8Array(await urls.get(image.thumbUrl!)!.arrayBuffer())).toEqual(new Uint8Array([0x89, 0x50, 0x4e, 0x47]));
    expect(image.file).toMatchObject({ name: 'snimka.png', type: 'image/png', prepare: true });

    // Removed, they are gone for good.
    act(() => again.result.current.remove(again.result.current.items[0]!.id));
    act(() => again.result.current.remove(again.result.current.items[0]!.id));
    await settled();
    again.unmount();
    expect(await db.draftFiles.count()).toBe(0);
    const last = tray('c1', engine);
    await act(async () => undefined);
    expect(last.result.current.items).toEqual([]);
  });

  it('R16.5 files picked before the engine loaded hold an update and make a reload ask, until the engine keeps them, caption and all', async () => {
    const { db } = await freshDb();
    const engine: { current: SyncEngine | null } = { current: null };
    const hook = tray('c1', engine);
    act(() => hook.result.current.add([pdf()]));
    act(() => hook.result.current.setCaption(hook.result.current.items[0]!.id, 'Zmluva'));
    expect(hasAnyDraft()).toBe(true);
    expect(reloadAsks()).toBe(true);

    engine.current = trayEngine(db);
    hook.rerender();
    await settled();
    expect(reloadAsks()).toBe(false);
    expect((await db.draftFiles.toArray()).map((r) => [r.conversationId, r.name, r.caption])).toEqual([['c1', 'brief.pdf', 'Zmluva']]);
    hook.unmount();
  });

  it('R16.5 a file whose save failed keeps holding the update and asking on reload while its chat is open', async () => {
    const { db } = await freshDb();
    const engine = { current: trayEngine(db, { keepDraftFiles: () => Promise.reject(new Error('QuotaExceededError')) }) };
    const hook = tray('c1', engine);
    act(() => hook.result.current.add([pdf()]));
    await act(async () => undefined);
    expect(hook.result.current.items).toHaveLength(1);
    expect(hasAnyDraft()).toBe(true);
    expect(reloadAsks()).toBe(true);
    // Closed, the screen tries once more, then nothing is left to hold or ask (the file is lost only
    // when the device refuses to store it twice).
    hook.unmount();
    await settled();
    expect(reloadAsks()).toBe(false);
  });

  it('R16.5 sent items leave the kept files; one added meanwhile stays', async () => {
    const { db } = await freshDb();
    const engine = { current: trayEngine(db) };
    const hook = tray('c1', engine);
    act(() => hook.result.current.add([pdf(), png()]));
    await settled();
    const [sent, kept] = hook.result.current.items;
    act(() => hook.result.current.removeSent([sent!.id]));
    await settled();
    expect((await db.draftFiles.toArray()).map((r) => r.id)).toEqual([kept!.id]);
    expect(revoked).not.toContain(kept!.thumbUrl);
    hook.unmount();
  });
});
