// @vitest-environment jsdom
// An admin ticks a specialist and at once unticks it: the first change's reload, still on the way,
// must not put the tick back (CI, session 44: Playwright's uncheck saw the box stay ticked). Each
// change shows its state at once; a reload shows what it read only if no change began after it left.
import { act, cleanup, renderHook, waitFor } from '@testing-library/react';
import type { ReactNode } from 'react';
import { MemoryRouter } from 'react-router-dom';
import { afterEach, describe, expect, it, vi } from 'vitest';
import type { SettingsData } from '../../../src/admin/settings/settings-data.ts';

const data = vi.hoisted(() => ({
  loadSettings: vi.fn(),
  assignSpecialist: vi.fn(),
  unassignSpecialist: vi.fn(),
}));
vi.mock('../../../src/admin/settings/settings-data.ts', () => ({
  loadSettings: data.loadSettings,
  assignSpecialist: data.assignSpecialist,
  unassignSpecialist: data.unassignSpecialist,
  changePlan: vi.fn(),
  setSpecialistsMode: vi.fn(),
}));
vi.mock('../../../src/admin/lib/toasts.ts', () => ({ adminError: vi.fn(), adminSuccess: vi.fn() }));

const { useAccountSettings } = await import('../../../src/admin/settings/use-account-settings.ts');
const { isAssigned } = await import('../../../src/admin/settings/specialist-state.ts');

const S = 'spec-1';
const settings = (linked: boolean): SettingsData => ({
  account: { id: 'acc', name: 'Účet', owner_email: null, specialists_mode: 'CUSTOM', plan: 'PRO', plan_id: 'p', created_at: '2026-01-01T00:00:00Z' },
  specialists: [{ id: S, name: 'Špecialista', role: null, avatar_url: null, seniority: null, is_ai: false }],
  plans: [],
  assignment: { mode: 'CUSTOM', activeIds: linked ? [S] : [], explicitIds: linked ? [S] : [] },
});
function deferred<T>() {
  let resolve!: (v: T) => void;
  const promise = new Promise<T>((r) => (resolve = r));
  return { promise, resolve };
}

afterEach(() => {
  cleanup();
  vi.resetAllMocks();
});

describe('account settings: changes and reloads', () => {
  it('a reload that left before the next change does not undo that change', async () => {
    const wrapper = ({ children }: { children: ReactNode }) => <MemoryRouter>{children}</MemoryRouter>;
    data.loadSettings.mockResolvedValueOnce(settings(false));
    const { result } = renderHook(() => useAccountSettings('acc'), { wrapper });
    await waitFor(() => expect(result.current.state.kind).toBe('ready'));
    const assigned = () => (result.current.state.kind === 'ready' ? isAssigned(result.current.state.data.assignment, S) : null);

    // Tick: assigned at once; the server says yes; its reload is held on the way.
    const firstReload = deferred<SettingsData>();
    data.assignSpecialist.mockResolvedValueOnce(undefined);
    data.loadSettings.mockReturnValueOnce(firstReload.promise);
    let tick!: Promise<void>;
    act(() => void (tick = result.current.toggleSpecialist(S)));
    expect(assigned()).toBe(true);
    await waitFor(() => expect(data.loadSettings).toHaveBeenCalledTimes(2));
    await waitFor(() => expect(result.current.saving).toBe(false));

    // Untick before that reload answers: unassigned at once, and its own call held too.
    const untickCall = deferred<undefined>();
    const secondReload = deferred<SettingsData>();
    data.unassignSpecialist.mockReturnValueOnce(untickCall.promise);
    data.loadSettings.mockReturnValueOnce(secondReload.promise);
    let untick!: Promise<void>;
    act(() => void (untick = result.current.toggleSpecialist(S)));
    expect(assigned()).toBe(false);

    // The first reload answers with the state it read (assigned): not shown, the untick stands.
    await act(async () => {
      firstReload.resolve(settings(true));
      await tick;
    });
    expect(assigned()).toBe(false);

    // The untick's own reload is the last word.
    await act(async () => {
      untickCall.resolve(undefined);
      await waitFor(() => expect(data.loadSettings).toHaveBeenCalledTimes(3));
      secondReload.resolve(settings(false));
      await untick;
    });
    expect(assigned()).toBe(false);
    expect(data.unassignSpecialist).toHaveBeenCalledWith('acc', S);
  });

  it('a reload with no change after it shows what the server has', async () => {
    const wrapper = ({ children }: { children: ReactNode }) => <MemoryRouter>{children}</MemoryRouter>;
    data.loadSettings.mockResolvedValueOnce(settings(false));
    const { result } = renderHook(() => useAccountSettings('acc'), { wrapper });
    await waitFor(() => expect(result.current.state.kind).toBe('ready'));
    // The server refuses the tick: the previous state is put back, then the reload (which another
    // admin's link made 'assigned') is shown, since no change began after it.
    data.assignSpecialist.mockRejectedValueOnce(new Error('refused'));
    data.loadSettings.mockResolvedValueOnce(settings(true));
    await act(async () => {
      await result.current.toggleSpecialist(S);
    });
    expect(result.current.state.kind === 'ready' && isAssigned(result.current.state.data.assignment, S)).toBe(true);
  });
});
