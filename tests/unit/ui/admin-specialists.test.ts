import { describe, expect, it } from 'vitest';
import { validateSend } from '../../../src/admin/chatwoot/send-validation.ts';
import { eventConversationId, filterEvents } from '../../../src/admin/chatwoot/event-search.ts';
import type { IntegrationEvent } from '../../../src/admin/chatwoot/chatwoot-data.ts';
import {
  assignedCount,
  filterSpecialists,
  isAssigned,
  withAssigned,
  keptOnCustom,
  withMode,
  withUnassigned,
  type Assignment,
  type SpecialistRow,
} from '../../../src/admin/settings/specialist-state.ts';

const sp = (id: string, name: string, role: string | null, seniority: string | null): SpecialistRow => ({
  id,
  name,
  role,
  seniority,
  avatar_url: null,
  is_ai: true,
});

describe('specialist assignment, optimistic view', () => {
  const defaults: Assignment = { mode: 'DEFAULT', activeIds: ['a', 'b'], explicitIds: [] };

  it('assign in DEFAULT copies the defaults as explicit, adds the new one and becomes CUSTOM', () => {
    const next = withAssigned(defaults, 'c');
    expect(next).toEqual({ mode: 'CUSTOM', activeIds: ['a', 'b', 'c'], explicitIds: ['a', 'b', 'c'] });
    expect(assignedCount(next)).toBe(3);
  });

  it('assign in CUSTOM only adds the link', () => {
    const custom: Assignment = { mode: 'CUSTOM', activeIds: ['x'], explicitIds: ['x'] };
    expect(withAssigned(custom, 'y')).toEqual({ mode: 'CUSTOM', activeIds: ['x', 'y'], explicitIds: ['x', 'y'] });
  });

  it('unassigning a default-only specialist keeps the other defaults explicitly', () => {
    const next = withUnassigned(defaults, 'a');
    expect(next).toEqual({ mode: 'CUSTOM', activeIds: ['b'], explicitIds: ['b'] });
    expect(isAssigned(next, 'a')).toBe(false);
  });

  it('unassign in CUSTOM deletes the link', () => {
    expect(withUnassigned({ mode: 'CUSTOM', activeIds: ['x', 'y'], explicitIds: ['x', 'y'] }, 'x').explicitIds).toEqual(['y']);
  });

  it('switching to DEFAULT drops explicit links; to CUSTOM only changes the mode; same mode is no change', () => {
    const custom: Assignment = { mode: 'CUSTOM', activeIds: ['x'], explicitIds: ['x'] };
    expect(withMode(custom, 'DEFAULT')).toMatchObject({ mode: 'DEFAULT', explicitIds: [] });
    // CUSTOM keeps only the explicit links: the plan's specialists drop out (what the server answers).
    expect(withMode(defaults, 'CUSTOM')).toEqual({ mode: 'CUSTOM', activeIds: [], explicitIds: [] });
    expect(keptOnCustom(defaults)).toBe(0);
    expect(keptOnCustom({ mode: 'DEFAULT', activeIds: ['a', 'b'], explicitIds: ['b'] })).toBe(1);
    expect(withMode(defaults, 'DEFAULT')).toBe(defaults);
  });

  it('searches name, role or seniority case-insensitively', () => {
    const list = [sp('1', 'Lucia', 'Sociálne siete', 'Senior'), sp('2', 'Martin', 'SEO špecialista', 'Medior'), sp('3', 'Eva', null, null)];
    expect(filterSpecialists(list, 'luc').map((s) => s.id)).toEqual(['1']);
    expect(filterSpecialists(list, 'seo').map((s) => s.id)).toEqual(['2']);
    expect(filterSpecialists(list, 'MEDIOR').map((s) => s.id)).toEqual(['2']);
    expect(filterSpecialists(list, '')).toHaveLength(3);
  });
});

describe('Chatwoot page rules', () => {
  it('validates send in the spec order', () => {
    expect(validateSend({ specialist: null, message: 'x', accountId: 'a' })).toEqual({ ok: false, error: 'Vyberte špecialistu' });
    expect(validateSend({ specialist: { chatwoot_inbox_id: null }, message: 'x', accountId: 'a' })).toEqual({
      ok: false,
      error: 'Špecialista nemá priradený Chatwoot Inbox ID',
    });
    expect(validateSend({ specialist: { chatwoot_inbox_id: 4 }, message: '   ', accountId: 'a' })).toEqual({ ok: false, error: 'Zadajte správu' });
    expect(validateSend({ specialist: { chatwoot_inbox_id: 4 }, message: 'ahoj', accountId: null })).toEqual({
      ok: false,
      error: 'Používateľ nemá priradený account',
    });
    expect(validateSend({ specialist: { chatwoot_inbox_id: 4 }, message: ' ahoj ', accountId: 'a' })).toEqual({ ok: true, inboxId: 4, content: 'ahoj', accountId: 'a' });
  });

  it('searches events by conversation id or kind', () => {
    const ev = (id: string, kind: string, data: Record<string, unknown>): IntegrationEvent => ({ id, kind, level: 'info', data, created_at: '2026-01-01T00:00:00Z' });
    const events = [ev('1', 'webhook.message_created', { chatwoot_conversation_id: 42 }), ev('2', 'webhook.conversation_status_changed', { conversation_id: 'abc-uuid' })];
    expect(filterEvents(events, '42').map((e) => e.id)).toEqual(['1']);
    expect(filterEvents(events, 'ABC').map((e) => e.id)).toEqual(['2']);
    expect(filterEvents(events, 'STATUS').map((e) => e.id)).toEqual(['2']);
    expect(filterEvents(events, '')).toHaveLength(2);
    expect(eventConversationId(events[0]!)).toBe('42');
  });
});
