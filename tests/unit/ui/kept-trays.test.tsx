// @vitest-environment jsdom
// A chat closed with files in its tray keeps them, captions and all, for when it opens again
// (kept-trays.ts); they hold an update back and make a reload ask first meanwhile (drafts.ts). A drop
// (the user's device data went) releases them, also for a tray that closes after it.
import { act, cleanup, renderHook } from '@testing-library/react';
import { afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import { hasAnyDraft } from '../../../src/pages/chat/drafts.ts';
import { dropKeptTrays } from '../../../src/pages/chat/attachments/kept-trays.ts';
import { useAttachmentDraft } from '../../../src/pages/chat/attachments/use-attachment-draft.ts';

vi.mock('../../../src/lib/notify.ts', () => ({ toastError: vi.fn() }));

const revoked: string[] = [];
beforeAll(() => {
  let n = 0;
  URL.createObjectURL = () => `blob:test/${++n}`;
  URL.revokeObjectURL = (url: string) => void revoked.push(url);
});
afterEach(() => {
  cleanup();
  dropKeptTrays();
});

const pdf = () => new File(['%PDF-1.4'], 'brief.pdf', { type: 'application/pdf' });
const png = () => new File([new Uint8Array([0x89, 0x50, 0x4e, 0x47])], 'snimka.png', { type: 'image/png' });
/** Whether a reload would ask first (the page's beforeunload listener cancels the event). */
const reloadAsks = () => {
  const e = new Event('beforeunload', { cancelable: true });
  window.dispatchEvent(e);
  return e.defaultPrevented;
};

describe('kept trays', () => {
  it('a chat closed with files gets them back, captions kept; meanwhile they hold an update and a reload asks', () => {
    const first = renderHook(() => useAttachmentDraft('c1'));
    act(() => first.result.current.add([pdf(), png()]));
    const [brief] = first.result.current.items;
    act(() => first.result.current.setCaption(brief!.id, 'Zadanie kampane'));
    first.unmount();
    expect(hasAnyDraft()).toBe(true);
    expect(reloadAsks()).toBe(true);

    const other = renderHook(() => useAttachmentDraft('c2'));
    expect(other.result.current.items).toEqual([]);
    other.unmount();

    const again = renderHook(() => useAttachmentDraft('c1'));
    expect(again.result.current.items.map((i) => [i.name, i.caption])).toEqual([
      ['brief.pdf', 'Zadanie kampane'],
      ['snimka.png', ''],
    ]);
    // Removed, it is gone for good: closing the chat keeps nothing, and nothing holds or asks.
    act(() => again.result.current.remove(again.result.current.items[0]!.id));
    act(() => again.result.current.remove(again.result.current.items[0]!.id));
    again.unmount();
    expect(hasAnyDraft()).toBe(false);
    expect(reloadAsks()).toBe(false);
    expect(renderHook(() => useAttachmentDraft('c1')).result.current.items).toEqual([]);
  });

  it('a drop releases kept trays and their previews, and a tray open across the drop is not kept', () => {
    const kept = renderHook(() => useAttachmentDraft('c1'));
    act(() => kept.result.current.add([png()]));
    const url = kept.result.current.items[0]!.thumbUrl!;
    kept.unmount();
    const open = renderHook(() => useAttachmentDraft('c2'));
    act(() => open.result.current.add([pdf()]));

    dropKeptTrays(); // sign-out: the user's data goes (SyncProvider)
    expect(revoked).toContain(url);
    open.unmount(); // the chat closes after the drop (React may run the two in either order)
    expect(hasAnyDraft()).toBe(false);
    expect(reloadAsks()).toBe(false);
    expect(renderHook(() => useAttachmentDraft('c1')).result.current.items).toEqual([]);
    expect(renderHook(() => useAttachmentDraft('c2')).result.current.items).toEqual([]);
  });
});
