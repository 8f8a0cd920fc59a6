// @vitest-environment jsdom
// 'Chatovať' clicked before the sync engine's code has loaded (the cards paint from the database
// opened early): the start waits for the engine instead of failing at once (use-start-conversation.ts).
import { act, cleanup, fireEvent, render, screen } from '@testing-library/react';
import { MemoryRouter, Route, Routes } from 'react-router-dom';
import { afterEach, describe, expect, it, vi } from 'vitest';
import type { SyncEngine } from '../../../sync/engine.ts';
import { SyncContext } from '../../../src/data/sync-context.ts';
import { useStartConversation } from '../../../src/data/use-start-conversation.ts';
import { toastError } from '../../../src/lib/notify.ts';

vi.mock('../../../src/lib/notify.ts', () => ({ toastError: vi.fn(), toastSuccess: vi.fn() }));

afterEach(cleanup);

function fakeEngine(startConversation: ReturnType<typeof vi.fn>): SyncEngine {
  return { commands: { startConversation }, status: () => ({ connection: 'online' }) } as unknown as SyncEngine;
}

function Start({ onResult }: { onResult: (ok: boolean) => void }) {
  const start = useStartConversation();
  return (
    <button type="button" onClick={() => void start({ specialistId: 's1' }).then(onResult)}>
      Chatovať
    </button>
  );
}

/** `away`: the member has left the page with the button (its component unmounted). */
function App({ engine, onResult, away = false }: { engine: SyncEngine | null; onResult: (ok: boolean) => void; away?: boolean }) {
  return (
    <SyncContext.Provider value={engine}>
      <MemoryRouter initialEntries={['/app/specialists']}>
        <Routes>
          <Route path="/app/specialists" element={away ? <p>iná stránka</p> : <Start onResult={onResult} />} />
          <Route path="/app/chats/:id" element={<p>otvorený chat</p>} />
        </Routes>
      </MemoryRouter>
    </SyncContext.Provider>
  );
}

const started = () => vi.fn(() => Promise.resolve({ requestId: null, done: Promise.resolve({ created: true, conversationId: 'c1' }) }));

describe("'Chatovať' before the engine is there", () => {
  it('waits for the engine, then starts and opens the chat', async () => {
    const startConversation = started();
    const onResult = vi.fn();
    const { rerender } = render(<App engine={null} onResult={onResult} />);
    fireEvent.click(screen.getByRole('button', { name: 'Chatovať' }));
    await act(() => new Promise((r) => setTimeout(r, 50)));
    expect(onResult).not.toHaveBeenCalled();
    expect(startConversation).not.toHaveBeenCalled();
    rerender(<App engine={fakeEngine(startConversation)} onResult={onResult} />);
    expect(await screen.findByText('otvorený chat')).toBeTruthy();
    expect(startConversation).toHaveBeenCalledWith({ specialistId: 's1' });
    expect(onResult).toHaveBeenCalledWith(true);
  });

  it('with the engine there, starts at once', async () => {
    const startConversation = started();
    const onResult = vi.fn();
    render(<App engine={fakeEngine(startConversation)} onResult={onResult} />);
    fireEvent.click(screen.getByRole('button', { name: 'Chatovať' }));
    expect(await screen.findByText('otvorený chat')).toBeTruthy();
    expect(onResult).toHaveBeenCalledWith(true);
  });

  it('gives up when the engine never comes, as a start does (START_GIVE_UP_MS)', async () => {
    vi.useFakeTimers();
    try {
      const onResult = vi.fn();
      render(<App engine={null} onResult={onResult} />);
      fireEvent.click(screen.getByRole('button', { name: 'Chatovať' }));
      await act(async () => {
        await vi.advanceTimersByTimeAsync(15_000);
      });
      expect(onResult).toHaveBeenCalledWith(false);
    } finally {
      vi.useRealTimers();
    }
  });

  it('left before the engine came: nothing is started, no toast, no chat opened', async () => {
    const startConversation = started();
    const onResult = vi.fn();
    vi.mocked(toastError).mockClear();
    const { rerender } = render(<App engine={null} onResult={onResult} />);
    fireEvent.click(screen.getByRole('button', { name: 'Chatovať' }));
    rerender(<App engine={null} onResult={onResult} away />);
    rerender(<App engine={fakeEngine(startConversation)} onResult={onResult} away />);
    await act(() => new Promise((r) => setTimeout(r, 50)));
    expect(onResult).toHaveBeenCalledWith(false);
    expect(startConversation).not.toHaveBeenCalled();
    expect(toastError).not.toHaveBeenCalled();
    expect(screen.getByText('iná stránka')).toBeTruthy();
  });

  it('left while the server answers: the member is not pulled into the chat', async () => {
    let answer: (v: { created: boolean; conversationId: string }) => void = () => undefined;
    const startConversation = vi.fn(() => Promise.resolve({ requestId: null, done: new Promise((r) => (answer = r)) }));
    const onResult = vi.fn();
    const { rerender } = render(<App engine={fakeEngine(startConversation)} onResult={onResult} />);
    fireEvent.click(screen.getByRole('button', { name: 'Chatovať' }));
    await act(() => new Promise((r) => setTimeout(r, 10)));
    expect(startConversation).toHaveBeenCalledTimes(1);
    rerender(<App engine={fakeEngine(startConversation)} onResult={onResult} away />);
    await act(async () => answer({ created: true, conversationId: 'c1' }));
    await act(() => new Promise((r) => setTimeout(r, 50)));
    expect(onResult).toHaveBeenCalledWith(true);
    expect(screen.queryByText('otvorený chat')).toBeNull();
    expect(screen.getByText('iná stránka')).toBeTruthy();
  });
});
