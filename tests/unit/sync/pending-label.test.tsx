// @vitest-environment jsdom
// R9.5: a queued message's bubble says what it waits for: the network, a new sign-in, or nothing
// (on its way); it follows the engine's status as it changes.
import { act, cleanup, render, screen } from '@testing-library/react';
import { afterEach, describe, expect, it } from 'vitest';
import type { SyncEngine } from '../../../sync/engine.ts';
import type { LocalMessage } from '../../../sync/model/local-types.ts';
import type { SyncStatus } from '../../../sync/status.ts';
import { TEXT_WAITS_FOR_NETWORK, TEXT_WAITS_FOR_SIGN_IN } from '../../../sync/model/texts.ts';
import { MessageBubble } from '../../../src/pages/chat/MessageBubble.tsx';
import { SyncContext } from '../../../src/data/sync-context.ts';
import { sk } from '../../../src/text/sk.ts';

afterEach(cleanup);

const sending: LocalMessage = {
  key: 'c:1', serverId: null, conversationId: 'k', accountId: null, text: 'Ahoj', type: 'text', direction: 'user', source: 'app',
  chatwootMessageId: null, createdAt: '2026-01-05T10:00:00.000000Z', orderKey: 'x', readAt: null, payload: null, correlationId: '1',
  senderUserId: null, changeSeq: 0, state: 'sending', origin: 'optimistic', error: null, confirmedAt: null,
};

function fakeEngine(initial: SyncStatus) {
  let status = initial;
  const listeners = new Set<(s: SyncStatus) => void>();
  const engine = {
    status: () => status,
    subscribeStatus: (fn: (s: SyncStatus) => void) => {
      listeners.add(fn);
      return () => void listeners.delete(fn);
    },
  } as unknown as SyncEngine;
  const set = (s: Partial<SyncStatus>) => {
    status = { ...status, ...s };
    for (const fn of listeners) fn(status);
  };
  return { engine, set };
}

describe('R9.5 the pending label', () => {
  it('R9.5 says Čaká na pripojenie offline, Čaká na prihlásenie when signed out, Odosiela sa otherwise', () => {
    const { engine, set } = fakeEngine({ connection: 'online', error: null, loaded: true, leader: true });
    render(
      <SyncContext.Provider value={engine}>
        <MessageBubble message={sending} onRetry={() => {}} />
      </SyncContext.Provider>,
    );
    const label = () => screen.getByTestId('pending-label').textContent;
    expect(label()).toBe(sk.chat.sending);
    act(() => set({ connection: 'offline' }));
    expect(label()).toBe(TEXT_WAITS_FOR_NETWORK);
    act(() => set({ connection: 'error', needsSignIn: true }));
    expect(label()).toBe(TEXT_WAITS_FOR_SIGN_IN);
    act(() => set({ connection: 'online', needsSignIn: false }));
    expect(label()).toBe(sk.chat.sending);
  });
});
