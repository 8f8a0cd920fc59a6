// @vitest-environment jsdom
import { act, cleanup, render, screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { MemoryRouter, Route, Routes } from 'react-router-dom';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';

const stopImpersonationOnServer = vi.fn(async () => {});
vi.mock('../../../src/data/remote-account.ts', () => ({ stopImpersonationOnServer: () => stopImpersonationOnServer() }));
const store = await import('../../../src/account/impersonation-store.ts');
const { ImpersonationBanner } = await import('../../../src/layout/ImpersonationBanner.tsx');
const { ImpersonationCard } = await import('../../../src/pages/settings/ImpersonationCard.tsx');
const { ownAccount, Providers } = await import('./account-fixtures.tsx');

beforeEach(() => localStorage.clear());
afterEach(cleanup);

describe('impersonation store', () => {
  it('persists the active account id and the account with plan UNKNOWN / DEFAULT under one key', () => {
    const seen = vi.fn();
    const unsubscribe = store.subscribeImpersonation(seen);
    store.setImpersonation({ id: 'acc-9', name: 'Kaviareň Mlyn' });
    expect(JSON.parse(localStorage.getItem(store.IMPERSONATION_KEY) ?? 'null')).toEqual({
      accountId: 'acc-9',
      account: { id: 'acc-9', name: 'Kaviareň Mlyn', plan: 'UNKNOWN', specialists_mode: 'DEFAULT' },
    });
    const a = store.getImpersonation();
    expect(a?.account.name).toBe('Kaviareň Mlyn');
    expect(store.getImpersonation()).toBe(a);
    store.clearImpersonation();
    expect(store.getImpersonation()).toBeNull();
    expect(seen).toHaveBeenCalledTimes(2);
    unsubscribe();
  });
  it('ignores damaged stored values', () => {
    localStorage.setItem(store.IMPERSONATION_KEY, '{not json');
    expect(store.getImpersonation()).toBeNull();
    localStorage.setItem(store.IMPERSONATION_KEY, JSON.stringify({ accountId: 5 }));
    expect(store.getImpersonation()).toBeNull();
  });
});

describe('stopping impersonation', () => {
  const impersonating = {
    ...ownAccount,
    isImpersonating: true,
    impersonation: { accountId: 'acc-9', account: { id: 'acc-9', name: 'Kaviareň Mlyn', plan: 'UNKNOWN', specialists_mode: 'DEFAULT' as const } },
  };
  const renderAt = (element: React.ReactNode) =>
    render(
      <Providers account={impersonating}>
        <MemoryRouter initialEntries={['/app/settings']}>
          <Routes>
            <Route path="/app/settings" element={element} />
            <Route path="/app/chats" element={<p>chat list</p>} />
          </Routes>
        </MemoryRouter>
      </Providers>,
    );

  it("banner 'Impersonating: {name}' with 'Stop impersonating' clears it locally and on the server", async () => {
    store.setImpersonation({ id: 'acc-9', name: 'Kaviareň Mlyn' });
    renderAt(<ImpersonationBanner />);
    expect(screen.getByText('Impersonating: Kaviareň Mlyn')).toBeTruthy();
    await userEvent.setup({ delay: null }).click(screen.getByRole('button', { name: 'Stop impersonating' }));
    expect(store.getImpersonation()).toBeNull();
    expect(stopImpersonationOnServer).toHaveBeenCalled();
    expect(await screen.findByText('chat list')).toBeTruthy();
  });
  it("settings card 'Zrušiť impersonáciu' returns to the chat list", async () => {
    renderAt(<ImpersonationCard />);
    await act(async () => {
      await userEvent.setup({ delay: null }).click(screen.getByRole('button', { name: 'Zrušiť impersonáciu' }));
    });
    expect(await screen.findByText('chat list')).toBeTruthy();
  });
  it('renders nothing when not impersonating', () => {
    const { container } = render(
      <Providers>
        <MemoryRouter>
          <ImpersonationBanner />
          <ImpersonationCard />
        </MemoryRouter>
      </Providers>,
    );
    expect(container.innerHTML).toBe('');
  });
});
