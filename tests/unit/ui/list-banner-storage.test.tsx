// @vitest-environment jsdom
// R17.2/R17.3: the list banner says the device's storage failure as it is — before the first load
// too, where a plain load failure would otherwise be shown — and offers no retry that cannot help.
import { cleanup, render, screen } from '@testing-library/react';
import { afterEach, describe, expect, it } from 'vitest';
import { ListBanner } from '../../../src/pages/chats/ListBanner.tsx';
import { storageStatus, type SyncStatus } from '../../../sync/status.ts';
import { TEXT_STORAGE_BLOCKED, TEXT_STORAGE_UNAVAILABLE } from '../../../sync/model/texts.ts';

afterEach(cleanup);

const fresh: SyncStatus = { connection: 'online', error: null, loaded: false, leader: false };
const noop = () => undefined;

describe('R17 the list banner on a failing storage', () => {
  it('R17.2 storage unavailable before any load: the Slovak reason, not "Nepodarilo sa načítať konverzácie"', () => {
    render(<ListBanner status={storageStatus(fresh, 'unavailable')} onRetry={noop} />);
    const banner = screen.getByTestId('load-error-banner');
    expect(banner.textContent).toContain(TEXT_STORAGE_UNAVAILABLE);
    expect(banner.textContent).not.toContain('Nepodarilo sa načítať');
  });

  it('R17.3 an upgrade blocked by another tab says to close the other tabs', () => {
    render(<ListBanner status={storageStatus(fresh, 'blocked')} onRetry={noop} />);
    expect(screen.getByTestId('load-error-banner').textContent).toContain(TEXT_STORAGE_BLOCKED);
  });
});
