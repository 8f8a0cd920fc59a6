// An in-memory ServerApi with the database issue's contracts (per-account gap-free change_seq,
// idempotent send by correlation id, forward-only read cursors, paged sync_pull) and a queue of
// injected failures. For unit tests of the engine's rules without the real stack.
import { randomUUID } from 'node:crypto';
import type { RemoteConversation, RemoteMessage, RemotePullPage, RemoteReadCursor, RemoteSpecialist } from '../../../../sync/model/remote-types.ts';
import { ServerError, type SendResult, type ServerApi } from '../../../../sync/server/api.ts';

export const SPECIALIST: RemoteSpecialist = { id: 'sp-1', name: 'Zuzana AI', role: 'Copywriter', avatar_url: null, seniority: 'senior', is_ai: true };
export const HUMAN: RemoteSpecialist = { id: 'sp-2', name: 'Peter Človek', role: 'Stratég', avatar_url: null, seniority: 'lead', is_ai: false };

type Method = keyof ServerApi;

export class FakeServer {
  seq = 0;
  clock = Date.parse('2025-01-01T10:00:00Z');
  conversations = new Map<string, RemoteConversation>();
  messages = new Map<string, RemoteMessage>();
  cursors = new Map<string, RemoteReadCursor>();
  specialists = [SPECIALIST, HUMAN];
  /** R9.7: the database's identity on every pull page (none: pages carry no epoch, as before it). */
  epoch: string | null = null;
  failures: { method: Method; error: ServerError; times: number }[] = [];
  calls: { method: Method; args: unknown[] }[] = [];

  constructor(
    readonly accountId = 'acc-1',
    readonly userId = 'user-1',
  ) {}

  tick(ms = 1): string {
    this.clock += ms;
    return new Date(this.clock).toISOString().replace('Z', '+00:00');
  }

  fail(method: Method, kind: 'transient' | 'permanent', times = 1, message = kind === 'permanent' ? 'refused' : 'fetch failed', status: number | null = kind === 'permanent' ? 400 : null) {
    this.failures.push({ method, error: new ServerError(kind, message, status), times });
  }

  private gate(method: Method, args: unknown[]) {
    this.calls.push({ method, args });
    const f = this.failures.find((x) => x.method === method && x.times > 0);
    if (f) {
      f.times--;
      throw f.error;
    }
  }

  addConversation(p: Partial<RemoteConversation> = {}): RemoteConversation {
    const created = this.tick();
    const c: RemoteConversation = {
      id: p.id ?? randomUUID(),
      account_id: this.accountId,
      specialist_id: SPECIALIST.id,
      status: 'active',
      last_message_at: null,
      archived_at: null,
      chatwoot_conversation_id: null,
      created_at: created,
      updated_at: created,
      ...p,
      change_seq: ++this.seq,
    };
    this.conversations.set(c.id, c);
    return c;
  }

  addMessage(conversationId: string, p: Partial<RemoteMessage> = {}): RemoteMessage {
    const m: RemoteMessage = {
      id: randomUUID(),
      conversation_id: conversationId,
      account_id: this.accountId,
      text: 'Dobrý deň',
      type: 'text',
      direction: 'specialist',
      source: 'ai',
      chatwoot_message_id: null,
      created_at: this.tick(),
      read_at: null,
      payload: null,
      client_correlation_id: null,
      sender_user_id: null,
      ...p,
      change_seq: ++this.seq,
    };
    this.messages.set(m.id, m);
    const c = this.conversations.get(conversationId);
    if (c) this.conversations.set(c.id, { ...c, last_message_at: m.created_at, change_seq: ++this.seq });
    return m;
  }

  setArchivedNow(id: string, archivedAt: string | null) {
    const c = this.conversations.get(id)!;
    this.conversations.set(id, { ...c, archived_at: archivedAt, change_seq: ++this.seq });
  }

  api(): ServerApi {
    return {
      pull: async (since, limit) => {
        this.gate('pull', [since, limit]);
        return this.page(since, limit);
      },
      sendMessage: async (input): Promise<SendResult> => {
        this.gate('sendMessage', [input]);
        const c = this.conversations.get(input.conversationId);
        if (!c) throw new ServerError('permanent', 'Conversation not found', 404);
        if (c.status !== 'active') throw new ServerError('permanent', 'Conversation is completed', 400);
        const existing = [...this.messages.values()].find((m) => m.client_correlation_id === input.correlationId);
        if (existing) return { row: existing };
        return {
          row: this.addMessage(input.conversationId, {
            text: input.text,
            direction: 'user',
            source: 'app',
            client_correlation_id: input.correlationId,
            sender_user_id: this.userId,
            payload: input.payload,
          }),
        };
      },
      markRead: async (conversationId, messageId) => {
        this.gate('markRead', [conversationId, messageId]);
        const m = this.messages.get(messageId);
        if (!m) throw new ServerError('permanent', 'Message not found', 404);
        const prev = this.cursors.get(conversationId);
        const prevMsg = prev?.last_read_message_id ? this.messages.get(prev.last_read_message_id) : undefined;
        if (prev && prevMsg && prevMsg.change_seq >= m.change_seq) return prev;
        const row: RemoteReadCursor = {
          user_id: this.userId,
          conversation_id: conversationId,
          account_id: this.accountId,
          last_read_message_id: messageId,
          last_read_at: this.tick(),
          updated_at: this.tick(),
          change_seq: ++this.seq,
        };
        this.cursors.set(conversationId, row);
        return row;
      },
      setArchived: async (id, archivedAt) => {
        this.gate('setArchived', [id, archivedAt]);
        if (!this.conversations.has(id)) throw new ServerError('permanent', 'Conversation not found', 404);
        this.setArchivedNow(id, archivedAt);
        return this.conversations.get(id)!;
      },
      startConversation: async (input) => {
        this.gate('startConversation', [input]);
        const found = [...this.conversations.values()].find((c) => c.specialist_id === input.specialistId);
        if (found) return { conversation_id: found.id, created: false };
        return { conversation_id: this.addConversation({ specialist_id: input.specialistId }).id, created: true };
      },
      ensureFirstConversation: async () => {
        this.gate('ensureFirstConversation', []);
        const found = [...this.conversations.values()][0];
        if (found) return { conversation_id: found.id, created: false };
        return { conversation_id: this.addConversation().id, created: true };
      },
      fetchAccountId: async () => {
        this.gate('fetchAccountId', []);
        return this.accountId;
      },
      fetchAccount: async () => {
        this.gate('fetchAccount', []);
        return { id: this.accountId, name: 'Test Account', plan: 'FREE', specialists_mode: 'DEFAULT' };
      },
      fetchActiveSpecialists: async () => {
        this.gate('fetchActiveSpecialists', []);
        return this.specialists;
      },
    };
  }

  page(since: number, limit: number): RemotePullPage {
    type Row = { table: 'c' | 'm' | 'r'; seq: number; row: unknown };
    const rows: Row[] = [
      ...[...this.conversations.values()].map((row) => ({ table: 'c' as const, seq: row.change_seq, row })),
      ...[...this.messages.values()].map((row) => ({ table: 'm' as const, seq: row.change_seq, row })),
      ...[...this.cursors.values()].map((row) => ({ table: 'r' as const, seq: row.change_seq, row })),
    ]
      .filter((r) => r.seq > since)
      .sort((a, b) => a.seq - b.seq);
    const pageRows = rows.slice(0, limit);
    const spec = new Map(this.specialists.map((s) => [s.id, s]));
    return {
      conversations: pageRows.filter((r) => r.table === 'c').map((r) => {
        const c = r.row as RemoteConversation;
        return { ...c, specialist: c.specialist_id ? (spec.get(c.specialist_id) ?? null) : null };
      }),
      messages: pageRows.filter((r) => r.table === 'm').map((r) => r.row as RemoteMessage),
      read_cursors: pageRows.filter((r) => r.table === 'r').map((r) => r.row as RemoteReadCursor),
      deleted: [],
      cursor: rows.length > limit ? pageRows[pageRows.length - 1]!.seq : this.seq,
      has_more: rows.length > limit,
      account_change_seq: this.seq,
      ...(this.epoch ? { feed_epoch: this.epoch } : {}),
    };
  }
}
