import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { systemClock } from '../../../sync/model/clock.ts';
import { createStatusStore, rawStatus, type SyncStatus } from '../../../sync/status.ts';
import { TEXT_LOAD_FAILED, TEXT_LOAD_FAILED_AFTER_RECONNECT, TEXT_OFFLINE } from '../../../sync/model/texts.ts';

const base = { online: true, pullFailed: false, pullReason: 'other' as const, linkUp: true, hasLink: true, everConnected: true, linkFailures: 0 };

beforeEach(() => {
  vi.useFakeTimers();
});
afterEach(() => {
  vi.useRealTimers();
});

describe('R7.7 status', () => {
  it('R7.7 maps the machine to online, offline, fallback and error with the spec texts', () => {
    expect(rawStatus(base)).toEqual({ connection: 'online', error: null });
    expect(rawStatus({ ...base, online: false })).toEqual({ connection: 'offline', error: TEXT_OFFLINE });
    expect(rawStatus({ ...base, linkUp: false, linkFailures: 1 })).toEqual({ connection: 'fallback', error: null });
    expect(rawStatus({ ...base, hasLink: false, linkUp: false })).toEqual({ connection: 'fallback', error: null });
    expect(rawStatus({ ...base, linkUp: false, everConnected: false })).toEqual({ connection: 'online', error: null });
    expect(rawStatus({ ...base, pullFailed: true })).toEqual({ connection: 'error', error: TEXT_LOAD_FAILED });
    expect(rawStatus({ ...base, pullFailed: true, pullReason: 'reconnect' })).toEqual({ connection: 'error', error: TEXT_LOAD_FAILED_AFTER_RECONNECT });
  });

  it('R7.7 a blip shorter than the debounce is never published; a lasting change is', () => {
    const initial: SyncStatus = { connection: 'online', error: null, loaded: false, leader: true };
    const store = createStatusStore(systemClock, 1500, initial);
    const seen: string[] = [];
    store.subscribe((s) => seen.push(s.connection));
    store.setConnection({ connection: 'offline', error: TEXT_OFFLINE });
    vi.advanceTimersByTime(1000);
    store.setConnection({ connection: 'online', error: null });
    vi.advanceTimersByTime(5000);
    expect(seen).toEqual([]);
    store.setConnection({ connection: 'fallback', error: null });
    vi.advanceTimersByTime(1000);
    store.setConnection({ connection: 'fallback', error: null }); // the same again does not restart the wait
    vi.advanceTimersByTime(500);
    expect(seen).toEqual(['fallback']);
    store.patch({ loaded: true });
    expect(store.get()).toMatchObject({ connection: 'fallback', loaded: true });
    expect(seen).toEqual(['fallback', 'fallback']);
    store.dispose();
  });
});
