// The verdict of a chaos run, computed from what the browsers typed, what PostgreSQL holds and what
// every browser's IndexedDB holds after healing. Pure (tests/unit/chaos-verdict.test.ts).
// A run passes only with 0 lost, 0 duplicated, 0 divergent clients and 0 leaked rows.

/** A text a context typed and saw accepted by the composer (cleared, own bubble shown). */
export interface SentRecord {
  context: number;
  accountId: string;
  text: string;
}

export interface ServerMessage {
  id: string;
  conversationId: string;
  accountId: string;
  text: string | null;
}

export interface ClientMessage {
  serverId: string | null;
  conversationId: string;
  accountId: string | null;
  text: string;
  state: string;
}

export interface ClientSnapshot {
  context: number;
  accountId: string;
  outbox: number;
  messages: ClientMessage[];
  conversations: { id: string; accountId: string | null }[];
}

export interface ClientVerdict {
  context: number;
  accountId: string;
  sent: number;
  local: number;
  missing: number;
  extra: number;
  unsent: number;
  outbox: number;
  leaked: number;
  divergent: boolean;
}

export interface ChaosReport {
  sent: number;
  stored: number;
  duplicates: string[];
  lost: string[];
  /** Texts stored in an account other than the typing context's. */
  misplaced: string[];
  clients: ClientVerdict[];
  divergent: number;
  leaks: number;
  ok: boolean;
}

export function judge(
  sent: readonly SentRecord[],
  server: readonly ServerMessage[],
  clients: readonly ClientSnapshot[],
  /** Every conversation id of each account (from the server). */
  accountConversations: ReadonlyMap<string, readonly string[]>,
): ChaosReport {
  const byText = new Map<string, ServerMessage[]>();
  for (const m of server) {
    if (m.text === null) continue;
    const list = byText.get(m.text) ?? [];
    list.push(m);
    byText.set(m.text, list);
  }
  const duplicates: string[] = [];
  const lost: string[] = [];
  const misplaced: string[] = [];
  let stored = 0;
  const sentTexts = new Set<string>();
  for (const s of sent) {
    if (sentTexts.has(s.text)) continue; // a context never types the same text twice; be safe
    sentTexts.add(s.text);
    const rows = byText.get(s.text) ?? [];
    if (rows.length === 0) lost.push(s.text);
    else stored++;
    if (rows.length > 1) duplicates.push(s.text);
    if (rows.some((r) => r.accountId !== s.accountId)) misplaced.push(s.text);
  }

  const serverByAccount = new Map<string, ServerMessage[]>();
  for (const m of server) {
    const list = serverByAccount.get(m.accountId) ?? [];
    list.push(m);
    serverByAccount.set(m.accountId, list);
  }

  const verdicts = clients.map((c): ClientVerdict => {
    const own = new Set(accountConversations.get(c.accountId) ?? []);
    let leaked = 0;
    for (const conv of c.conversations) if (!own.has(conv.id) || (conv.accountId !== null && conv.accountId !== c.accountId)) leaked++;
    const mine: ClientMessage[] = [];
    for (const m of c.messages) {
      if (!own.has(m.conversationId) || (m.accountId !== null && m.accountId !== c.accountId)) leaked++;
      else mine.push(m);
    }
    const expected = new Map<string, string | null>();
    for (const m of serverByAccount.get(c.accountId) ?? []) expected.set(`${m.conversationId}|${m.id}`, m.text);
    const seen = new Map<string, number>();
    let unsent = 0;
    let extra = 0;
    for (const m of mine) {
      if (m.serverId === null) {
        unsent++;
        continue;
      }
      const key = `${m.conversationId}|${m.serverId}`;
      seen.set(key, (seen.get(key) ?? 0) + 1);
      const want = expected.get(key);
      if (want === undefined || (want !== null && want !== m.text)) extra++;
    }
    for (const n of seen.values()) if (n > 1) extra += n - 1;
    let missing = 0;
    for (const key of expected.keys()) if (!seen.has(key)) missing++;
    const convIds = new Set(c.conversations.map((x) => x.id));
    const convMissing = [...own].filter((id) => !convIds.has(id)).length;
    return {
      context: c.context,
      accountId: c.accountId,
      sent: sent.filter((s) => s.context === c.context).length,
      local: mine.length,
      missing: missing + convMissing,
      extra,
      unsent,
      outbox: c.outbox,
      leaked,
      // outbox -1: the context's database is gone (signed out), which is divergence too.
      divergent: missing + convMissing + extra + unsent > 0 || c.outbox !== 0,
    };
  });
  const divergent = verdicts.filter((v) => v.divergent).length;
  const leaks = verdicts.reduce((n, v) => n + v.leaked, 0) + misplaced.length;
  return {
    sent: sentTexts.size,
    stored,
    duplicates,
    lost,
    misplaced,
    clients: verdicts,
    divergent,
    leaks,
    ok: lost.length === 0 && duplicates.length === 0 && divergent === 0 && leaks === 0,
  };
}

export function formatReport(r: ChaosReport, accountLabel: (id: string) => string = (id) => id.slice(0, 8)): string {
  const head = ['ctx', 'account', 'sent', 'local', 'missing', 'extra', 'unsent', 'outbox', 'leaked', 'state'];
  const rows = r.clients.map((c) => [
    String(c.context),
    accountLabel(c.accountId),
    String(c.sent),
    String(c.local),
    String(c.missing),
    String(c.extra),
    String(c.unsent),
    String(c.outbox),
    String(c.leaked),
    c.divergent ? 'DIVERGENT' : 'equal',
  ]);
  const widths = head.map((h, i) => Math.max(h.length, ...rows.map((row) => row[i]!.length)));
  const line = (cells: string[]) => cells.map((cell, i) => cell.padStart(widths[i]!)).join('  ');
  const out = [line(head), ...rows.map(line), ''];
  out.push(
    `sent ${r.sent}  stored ${r.stored}  duplicates ${r.duplicates.length}  lost ${r.lost.length}  ` +
      `divergent clients ${r.divergent}  leaked rows ${r.leaks}  → ${r.ok ? 'PASS' : 'FAIL'}`,
  );
  const sample = (label: string, list: string[]) => {
    if (list.length) out.push(`${label}: ${list.slice(0, 10).join(' | ')}${list.length > 10 ? ` … (+${list.length - 10})` : ''}`);
  };
  sample('lost', r.lost);
  sample('duplicated', r.duplicates);
  sample('stored in another account', r.misplaced);
  return out.join('\n');
}
