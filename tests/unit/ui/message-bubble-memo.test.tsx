// @vitest-environment jsdom
// The bubble is memoised on what it shows: a fresh copy of an unchanged message (every live-query
// answer) must not re-render it, and every change it shows (state, error, text, payload) must.
import { cleanup, render, screen } from '@testing-library/react';
import { afterEach, describe, expect, it } from 'vitest';
import type { LocalMessage } from '../../../sync/model/local-types.ts';
import { MessageBubble, sameBubble } from '../../../src/pages/chat/MessageBubble.tsx';
import { estimateRowPx } from '../../../src/pages/chat/estimate-row.ts';

afterEach(cleanup);

function message(p: Partial<LocalMessage> = {}): LocalMessage {
  return {
    key: 'c:1', serverId: null, conversationId: 'k', accountId: null, text: 'Ahoj', type: 'text', direction: 'user', source: 'app',
    chatwootMessageId: null, createdAt: '2026-01-05T10:00:00.000000Z', orderKey: 'x', readAt: null, payload: null, correlationId: '1',
    senderUserId: null, changeSeq: 0, state: 'sending', origin: 'optimistic', error: null, confirmedAt: null, ...p,
  };
}

const retry = () => {};

describe('MessageBubble memo', () => {
  it('treats copies as the same bubble and any shown change as different', () => {
    const a = message({ payload: { kind: 'rich_content', attachments: [] } });
    expect(sameBubble(a, { ...a, payload: { kind: 'rich_content', attachments: [] }, changeSeq: 5, orderKey: 'y' })).toBe(true);
    expect(sameBubble(a, { ...a, state: 'failed' })).toBe(false);
    expect(sameBubble(a, { ...a, error: 'x' })).toBe(false);
    expect(sameBubble(a, { ...a, text: 'Ahoj!' })).toBe(false);
    expect(sameBubble(a, { ...a, serverId: 's' })).toBe(false);
    expect(sameBubble(a, { ...a, payload: { kind: 'rich_content', attachments: [{ id: '1' }] } })).toBe(false);
  });

  it('still shows every change: a copy, then a failure with its error, then new text', () => {
    const m = message();
    const { rerender } = render(<MessageBubble message={m} onRetry={retry} />);
    rerender(<MessageBubble message={{ ...m, changeSeq: 3 }} onRetry={retry} />);
    expect(screen.getByTestId('message').getAttribute('data-state')).toBe('sending');
    rerender(<MessageBubble message={{ ...m, state: 'failed', error: 'Konverzácia už neexistuje, správa sa neodoslala' }} onRetry={retry} />);
    expect(screen.getByTestId('message').getAttribute('data-state')).toBe('failed');
    expect(screen.getByRole('alert').textContent).toContain('Konverzácia už neexistuje, správa sa neodoslala');
    rerender(<MessageBubble message={{ ...m, state: 'sent', text: 'Iný text' }} onRetry={retry} />);
    expect(screen.getByTestId('message').textContent).toContain('Iný text');
  });
});

describe('estimateRowPx', () => {
  it('grows a line at a time with the text and counts line breaks', () => {
    const one = estimateRowPx({ text: 'Ahoj', direction: 'user' }, 360);
    const long = estimateRowPx({ text: 'slovo '.repeat(20), direction: 'user' }, 360);
    const twoParagraphs = estimateRowPx({ text: 'Ahoj\nSvet', direction: 'user' }, 360);
    expect(one).toBe(66);
    expect(twoParagraphs).toBe(one + 24);
    expect(long).toBeGreaterThan(one + 3 * 24);
    expect((long - one) % 24).toBe(0);
    // A wider screen fits more per line.
    expect(estimateRowPx({ text: 'slovo '.repeat(20), direction: 'user' }, 1000)).toBeLessThan(long);
  });
});
