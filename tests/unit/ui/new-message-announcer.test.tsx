// @vitest-environment jsdom
// Screen readers hear messages that arrive while the chat is open — not the history, not the user's
// own, not a message placed far back in the list — and the check looks only at the newest rows.
import { cleanup, render, screen } from '@testing-library/react';
import { afterEach, describe, expect, it } from 'vitest';
import type { LocalMessage } from '../../../sync/model/local-types.ts';
import { ANNOUNCE_SCAN, NewMessageAnnouncer } from '../../../src/pages/chat/NewMessageAnnouncer.tsx';

afterEach(cleanup);

function message(i: number, p: Partial<LocalMessage> = {}): LocalMessage {
  return {
    key: `s:${i}`, serverId: String(i), conversationId: 'k', accountId: null, text: `Správa ${i}`, type: 'text', direction: 'specialist',
    source: 'chatwoot', chatwootMessageId: null, createdAt: '2026-01-05T10:00:00.000000Z', orderKey: String(i).padStart(6, '0'), readAt: null,
    payload: null, correlationId: null, senderUserId: null, changeSeq: i, state: 'sent', origin: 'server', error: null, confirmedAt: null, ...p,
  };
}

const spoken = () => screen.getByRole('log').textContent;

describe('NewMessageAnnouncer', () => {
  it('reads out an arriving reply, never the history or the user’s own message', () => {
    const history = Array.from({ length: 300 }, (_, i) => message(i));
    const { rerender } = render(<NewMessageAnnouncer messages={history} />);
    expect(spoken()).toBe('');
    rerender(<NewMessageAnnouncer messages={[...history, message(300, { direction: 'user', text: 'Moja otázka' })]} />);
    expect(spoken()).toBe('');
    rerender(<NewMessageAnnouncer messages={[...history, message(300, { direction: 'user' }), message(301, { text: '**Odpoveď** je tu' })]} />);
    expect(spoken()).toBe('Odpoveď je tu');
  });

  it('a deletion that shifts older messages into the scanned tail does not make them sound new', () => {
    const history = Array.from({ length: ANNOUNCE_SCAN * 3 }, (_, i) => message(i));
    const { rerender } = render(<NewMessageAnnouncer messages={history} />);
    rerender(<NewMessageAnnouncer messages={history.slice(0, -ANNOUNCE_SCAN)} />);
    expect(spoken()).toBe('');
  });

  it('a batch is history catching up, and a message placed before the newest rows is not read out', () => {
    const history = Array.from({ length: 200 }, (_, i) => message(i * 2));
    const { rerender } = render(<NewMessageAnnouncer messages={history} />);
    const batch = [1, 3, 5, 7].map((i) => message(1000 + i));
    rerender(<NewMessageAnnouncer messages={[...history, ...batch]} />);
    expect(spoken()).toBe('');
    const late = message(1, { text: 'Stará správa' });
    rerender(<NewMessageAnnouncer messages={[history[0]!, late, ...history.slice(1), ...batch]} />);
    expect(spoken()).toBe('');
  });

  it('R13.8 a streamed reply is read out once, whole, when it is complete — not each time it grows', () => {
    const history = Array.from({ length: 5 }, (_, i) => message(i));
    const growing = (text: string, payload: LocalMessage['payload']) => message(9, { key: 'c:job', text, payload });
    const { rerender } = render(<NewMessageAnnouncer messages={history} />);
    rerender(<NewMessageAnnouncer messages={[...history, growing('Prvé', { streaming: true })]} />);
    rerender(<NewMessageAnnouncer messages={[...history, growing('Prvé slová', { streaming: true })]} />);
    expect(spoken()).toBe('');
    rerender(<NewMessageAnnouncer messages={[...history, growing('Prvé slová odpovede.', {})]} />);
    expect(spoken()).toBe('Prvé slová odpovede.');
    rerender(<NewMessageAnnouncer messages={[...history, growing('Prvé slová odpovede.', {})]} />);
    expect(screen.getByRole('log').querySelectorAll('p')).toHaveLength(1);
  });

  it('R13.8 a reply already streaming when the chat opens is read out when it completes', () => {
    const history = [...Array.from({ length: 5 }, (_, i) => message(i)), message(9, { key: 'c:job', text: 'Začiatok', payload: { streaming: true } })];
    const { rerender } = render(<NewMessageAnnouncer messages={history} />);
    rerender(<NewMessageAnnouncer messages={[...history.slice(0, 5), message(9, { key: 'c:job', text: 'Začiatok a koniec.', payload: { stopped: true } })]} />);
    expect(spoken()).toBe('Začiatok a koniec.');
  });
});
