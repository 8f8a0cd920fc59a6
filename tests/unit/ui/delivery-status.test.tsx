// @vitest-environment jsdom
// R11.9: an own bubble shows where the message is — a clock while queued (R9.5's label), ✓ 'Odoslané'
// once the server has it, ✓✓ 'Prečítané' once read_at is set (and the memo re-renders for it);
// others' bubbles show no mark; a failed one keeps its reason and retry.
import { cleanup, render, screen } from '@testing-library/react';
import { afterEach, describe, expect, it } from 'vitest';
import type { LocalMessage } from '../../../sync/model/local-types.ts';
import { MessageBubble, sameBubble } from '../../../src/pages/chat/MessageBubble.tsx';
import { deliveryOf } from '../../../src/pages/chat/DeliveryStatus.tsx';

afterEach(cleanup);

const base: LocalMessage = {
  key: 'c:1', serverId: 's1', conversationId: 'k', accountId: null, text: 'Ahoj', type: 'text', direction: 'user', source: 'app',
  chatwootMessageId: null, createdAt: '2026-01-05T10:00:00.000000Z', orderKey: 'x', readAt: null, payload: null, correlationId: '1',
  senderUserId: null, changeSeq: 3, state: 'sent', origin: 'server', error: null, confirmedAt: null,
};

describe('R11.9 delivery marks', () => {
  it('derives the state', () => {
    expect(deliveryOf({ state: 'sending', readAt: null })).toBe('sending');
    expect(deliveryOf({ state: 'failed', readAt: null })).toBe('failed');
    expect(deliveryOf({ state: 'sent', readAt: null })).toBe('sent');
    expect(deliveryOf({ state: 'sent', readAt: '2026-01-05T10:01:00Z' })).toBe('read');
  });

  it('✓ Odoslané, then ✓✓ Prečítané when read_at arrives', () => {
    const { rerender } = render(<MessageBubble message={base} onRetry={() => {}} />);
    expect(screen.getByRole('img', { name: 'Odoslané' })).toHaveProperty('dataset.delivery', 'sent');
    const read = { ...base, readAt: '2026-01-05T10:01:00.000000Z' };
    expect(sameBubble(base, read)).toBe(false);
    rerender(<MessageBubble message={read} onRetry={() => {}} />);
    expect(screen.getByRole('img', { name: 'Prečítané' }).querySelector('svg')?.getAttribute('aria-hidden')).toBe('true');
    expect(screen.queryByRole('img', { name: 'Odoslané' })).toBeNull();
  });

  it('no mark on the specialist’s messages nor on a failed one (its reason and retry stay)', () => {
    render(<MessageBubble message={{ ...base, key: 's:2', direction: 'agent', readAt: '2026-01-05T10:01:00Z' }} onRetry={() => {}} />);
    expect(screen.queryByTestId('delivery')).toBeNull();
    cleanup();
    render(<MessageBubble message={{ ...base, state: 'failed', error: 'Konverzácia je ukončená, správa sa neodoslala' }} onRetry={() => {}} />);
    expect(screen.queryByTestId('delivery')).toBeNull();
    expect(screen.getByRole('alert').textContent).toContain('Konverzácia je ukončená');
  });
});
