// The sign-out warning: which outbox entries count as an unsent text, and the Slovak plural forms.
import { describe, expect, it } from 'vitest';
import { isUnsentText } from '../../../src/pages/settings/unsent-count.ts';
import { sk } from '../../../src/text/sk.ts';
import type { OutboxEntry, OutboxOp } from '../../../sync/send/outbox.ts';

const entry = (op: OutboxOp): OutboxEntry => ({ key: 'k', op, rev: 0, attempts: 0, createdAt: 0, lastError: null });
const start = (thenSend: { correlationId: string; text: string } | null): OutboxOp => ({
  kind: 'start',
  requestId: 'r',
  specialistId: 's',
  cardId: null,
  welcomeText: null,
  thenSend,
});

describe('unsent texts before sign-out', () => {
  it('counts sends and starts that carry a text; archive, read and ensure-first lose nothing typed', () => {
    expect(isUnsentText(entry({ kind: 'send', conversationId: 'c', correlationId: 'x', messageKey: 'm', text: 'Ahoj', payload: null }))).toBe(true);
    expect(isUnsentText(entry(start({ correlationId: 'y', text: 'Dobrý deň' })))).toBe(true);
    expect(isUnsentText(entry(start(null)))).toBe(false);
    expect(isUnsentText(entry({ kind: 'archive', conversationId: 'c', archivedAt: null }))).toBe(false);
    expect(isUnsentText(entry({ kind: 'read', conversationId: 'c', messageId: 'm' }))).toBe(false);
    expect(isUnsentText(entry({ kind: 'ensure-first', requestId: 'r' }))).toBe(false);
  });

  it('words the count with the Slovak plural forms (1, 2–4, 5+)', () => {
    expect(sk.settings.unsentWarning(1)).toBe('1 správa ešte nebola odoslaná. Po odhlásení sa z tohto zariadenia stratí.');
    expect(sk.settings.unsentWarning(3)).toBe('3 správy ešte neboli odoslané. Po odhlásení sa z tohto zariadenia stratia.');
    expect(sk.settings.unsentWarning(4)).toMatch(/^4 správy ešte neboli/);
    expect(sk.settings.unsentWarning(5)).toBe('5 správ ešte nebolo odoslaných. Po odhlásení sa z tohto zariadenia stratia.');
    expect(sk.settings.unsentWarning(21)).toMatch(/^21 správ ešte nebolo/);
  });
});
