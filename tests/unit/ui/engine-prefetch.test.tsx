// @vitest-environment jsdom
// R19.13 (sync/SPEC.md): the sync engine's code is fetched while the account is still being read.
import { cleanup, render } from '@testing-library/react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { SyncProvider } from '../../../src/data/SyncProvider.tsx';
import { ownAccount, Providers } from './account-fixtures.tsx';

const loaded = vi.hoisted(() => vi.fn());
vi.mock('../../../sync/engine.ts', () => {
  loaded();
  return { createSyncEngine: vi.fn() };
});

afterEach(() => {
  cleanup();
  vi.clearAllMocks();
});

describe('R19.13 the engine’s code before the account', () => {
  it('R19.13 a signed-in user whose account is still being read already has the engine’s code fetched', async () => {
    render(
      <Providers account={{ ...ownAccount, account: null, accountLoading: true }}>
        <SyncProvider>
          <p>zoznam</p>
        </SyncProvider>
      </Providers>,
    );
    await vi.waitFor(() => expect(loaded).toHaveBeenCalledTimes(1), { timeout: 2000 });
  });
});
