// @vitest-environment jsdom
// R5.10: while a backlog arrives the list shows its progress in Slovak, counts grouped by thousands
// with a non-breaking space; the load error and offline banners still win when they apply.
import { cleanup, render, screen } from '@testing-library/react';
import { afterEach, describe, expect, it } from 'vitest';
import { ListBanner } from '../../../src/pages/chats/ListBanner.tsx';
import { formatCount } from '../../../src/lib/count.ts';
import type { SyncStatus } from '../../../sync/status.ts';
import { TEXT_LOAD_FAILED, TEXT_OFFLINE } from '../../../sync/model/texts.ts';

afterEach(cleanup);

const base: SyncStatus = { connection: 'online', error: null, loaded: true, leader: true, progress: { done: 1240, total: 5000 } };
const noop = () => undefined;

describe('R5.10 the list banner', () => {
  it('R5.10 a backlog on its way reads "Sťahujem správy… 1 240 z 5 000" (no-break spaces), not an error', () => {
    render(<ListBanner status={base} onRetry={noop} />);
    const banner = screen.getByTestId('sync-progress-banner');
    expect(banner.textContent).toBe('Sťahujem správy… 1\u00a0240 z 5\u00a0000');
    expect(banner.getAttribute('role')).toBe('status');
    expect(screen.queryByTestId('load-error-banner')).toBeNull();
  });

  it('R5.10 offline and a load error that nothing progresses past still show as before', () => {
    render(<ListBanner status={{ ...base, connection: 'offline', error: TEXT_OFFLINE }} onRetry={noop} />);
    expect(screen.getByTestId('offline-banner')).toBeTruthy();
    cleanup();
    render(<ListBanner status={{ ...base, connection: 'error', error: TEXT_LOAD_FAILED }} onRetry={noop} />);
    expect(screen.getByTestId('load-error-banner')).toBeTruthy();
    expect(screen.queryByTestId('sync-progress-banner')).toBeNull();
  });

  it('R5.10 counts group by thousands as Slovak writes them', () => {
    expect(formatCount(5)).toBe('5');
    expect(formatCount(12_400)).toBe('12\u00a0400');
  });
});
