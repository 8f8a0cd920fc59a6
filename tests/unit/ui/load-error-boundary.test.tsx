// @vitest-environment jsdom
// A part of the app that cannot be loaded (a lazy chunk whose fetch fails: offline before the service
// worker stored it) is said in Slovak with a retry, never a blank page; a decorative part falls back to
// its placeholder. Without the boundary React unmounts the whole tree (the blank page of session 33's
// two-shard run, search-messages.e2e.ts, is one suspected way there).
import { act, cleanup, fireEvent, render, screen } from '@testing-library/react';
import { lazy, Suspense } from 'react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { LoadErrorBoundary } from '../../../src/components/LoadErrorBoundary.tsx';

afterEach(() => {
  cleanup();
  vi.restoreAllMocks();
  online(true);
});

/** A lazy component whose chunk cannot be fetched, as import() rejects offline. */
const unreachable = () => lazy(() => Promise.reject(new TypeError('Failed to fetch dynamically imported module: /assets/EmptyChatPane.js')));

function online(value: boolean) {
  Object.defineProperty(navigator, 'onLine', { configurable: true, get: () => value });
}

describe('LoadErrorBoundary', () => {
  it('says in Slovak that the part could not be shown, that the device is offline, and retries on the button', async () => {
    online(false);
    const onRetry = vi.fn();
    const Part = unreachable();
    vi.spyOn(console, 'error').mockImplementation(() => undefined);
    render(
      <div data-testid="app">
        <LoadErrorBoundary onRetry={onRetry}>
          <Suspense fallback={<p>Načítavam…</p>}>
            <Part />
          </Suspense>
        </LoadErrorBoundary>
      </div>,
    );
    const alert = await screen.findByRole('alert');
    expect(alert.textContent).toContain('Túto časť aplikácie sa nepodarilo zobraziť');
    expect(alert.textContent).toContain('Ste offline');
    fireEvent.click(screen.getByRole('button', { name: 'Skúsiť znova' }));
    expect(onRetry).toHaveBeenCalledTimes(1);
  });

  it('online, it says the page can be loaded again and that drafts and queued messages stay', async () => {
    online(true);
    const Part = unreachable();
    vi.spyOn(console, 'error').mockImplementation(() => undefined);
    render(
      <LoadErrorBoundary onRetry={() => undefined}>
        <Suspense fallback={null}>
          <Part />
        </Suspense>
      </LoadErrorBoundary>,
    );
    expect((await screen.findByRole('alert')).textContent).toContain('neodoslané správy zostávajú uložené');
  });

  it('a decorative part falls back to its placeholder, and what is beside it stays', async () => {
    const Part = unreachable();
    vi.spyOn(console, 'error').mockImplementation(() => undefined);
    render(
      <div>
        <p>Zoznam konverzácií</p>
        <LoadErrorBoundary fallback={<div data-testid="placeholder" />}>
          <Suspense fallback={null}>
            <Part />
          </Suspense>
        </LoadErrorBoundary>
      </div>,
    );
    await screen.findByTestId('placeholder');
    await act(async () => undefined);
    expect(screen.getByText('Zoznam konverzácií')).toBeTruthy();
    expect(screen.queryByRole('alert')).toBeNull();
  });
});
