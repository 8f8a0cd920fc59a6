// Issue 21 admin items 3 and 11: the admin's checks change no live data. Against the Chatwoot double,
// a user's linked Chatwoot conversation (resolved, with its attributes and messages) and every
// mailbox are left alone by both "Spustiť všetky testy" (the check definitions of
// src/admin/edge/edge-checks.ts, called as the page calls them) and the test runner's edge suite;
// the Chatwoot checks work on the conversation made for checking, which is reused and remade after a
// Chatwoot reset. On a stack without Chatwoot the Chatwoot checks say "not configured", not "failed".
import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { CHECKS, httpResult, notRunResult, summarize, type CheckContext, type CheckResult } from '../../src/admin/edge/edge-checks.ts';
import {
  SEEDED,
  SPECIALIST,
  accessToken,
  call,
  signIn,
  startChatwootWorld,
  type ChatwootWorld,
  type Client,
  type StackRef,
} from './functions-helpers.ts';

let world: ChatwootWorld;
let admin: Client;
let userDisplayId: number;

async function mails(stack: { url: string }): Promise<{ to: string; subject: string }[]> {
  return (await (await fetch(`${stack.url}/_dev/mail.json`)).json()) as { to: string; subject: string }[];
}

/** What the edge page does: the diagnostics conversation first, then the nine POSTs. */
async function runPageChecks(ref: StackRef, client: Client): Promise<CheckResult[]> {
  const token = await accessToken(client);
  const post = async (name: string, body: unknown, withToken: boolean) => {
    const res = await fetch(`${ref.url}/functions/v1/${name}`, {
      method: 'POST',
      headers: { 'Content-Type': 'application/json', apikey: ref.anonKey, ...(withToken ? { Authorization: `Bearer ${token}` } : {}) },
      body: JSON.stringify(body),
    });
    return { status: res.status, text: await res.text() };
  };
  const diag = await post('admin-chatwoot-diagnostics', {}, true);
  const id = diag.status === 200 ? (JSON.parse(diag.text) as { conversation_id: number }).conversation_id : null;
  const ctx: CheckContext = {
    diagnosticsConversationId: id,
    diagnosticsProblem: id === null ? { notConfigured: diag.status === 503, message: diag.text } : null,
  };
  const results: CheckResult[] = [];
  for (const def of CHECKS) {
    const payload = def.payload(ctx);
    if (payload === null) {
      results.push(notRunResult(def, ctx.diagnosticsProblem!));
      continue;
    }
    const r = await post(def.name, payload, def.verifyJwt);
    results.push(httpResult(def, r.status, r.text, 0));
  }
  return results;
}

function snapshot(displayId: number) {
  const conv = world.double.actions.conversation(world.double.accountId, displayId);
  const messages = [...world.double.store.messages.values()].filter((m) => m.conversationId === conv.id).map((m) => m.id);
  return { status: conv.status, assigneeId: conv.assigneeId, customAttributes: structuredClone(conv.customAttributes), messages };
}

describe('checks against Chatwoot (the double)', () => {
  beforeAll(async () => {
    world = await startChatwootWorld();
    admin = await signIn(world.ref, SEEDED.admin);
    // A user's live Chatwoot conversation: sent from the chat, then assigned and resolved by an agent.
    const demo = await signIn(world.ref, SEEDED.demo);
    const started = await call(demo, 'start-conversation', { specialist_id: SPECIALIST.zuzana });
    const sent = await call(demo, 'admin-chatwoot-send', { conversation_id: started.body.conversation_id, content: 'Moja otázka', client_correlation_id: randomUUID() });
    expect(sent.status).toBe(200);
    userDisplayId = sent.body.chatwoot_conversation_id as number;
    world.double.assign(userDisplayId, world.double.admin.id);
    world.double.resolve(userDisplayId);
    await world.double.webhooksIdle();
  });
  afterAll(async () => {
    await world?.stop();
  });

  it('"Spustiť všetky testy" passes all nine and leaves the user conversation and every mailbox alone', async () => {
    const before = snapshot(userDisplayId);
    const mailsBefore = (await mails(world.stack)).length;
    const conversationsBefore = world.double.store.conversations.size;

    const results = await runPageChecks(world.ref, admin);
    expect(results.filter((r) => !r.success).map((r) => `${r.name}: ${r.status} ${r.body}`)).toEqual([]);
    expect(summarize(results)).toMatchObject({ total: 9, passed: 9, failed: 0, notConfigured: 0 });

    expect(snapshot(userDisplayId)).toEqual(before);
    expect(before.status).toBe('resolved');
    await new Promise((r) => setTimeout(r, 300)); // mails are sent after the response
    expect((await mails(world.stack)).length).toBe(mailsBefore);
    // Exactly one conversation was made, for checking, and it says so.
    expect(world.double.store.conversations.size).toBe(conversationsBefore + 1);
    const diag = [...world.double.store.conversations.values()].find((c) => c.customAttributes.poradna_diagnostics === true)!;
    expect(diag.displayId).not.toBe(userDisplayId);
    expect(world.double.store.contacts.get(diag.contactId)?.name).toBe('Poradňa – diagnostika (nie je používateľ)');
    expect([...world.double.store.messages.values()].some((m) => m.conversationId === diag.id && m.content === 'Admin edge check')).toBe(true);
  });

  it('the test runner’s edge suite passes on the same conversation (reused) and touches no user data', async () => {
    const before = snapshot(userDisplayId);
    const mailsBefore = (await mails(world.stack)).length;
    const conversationsBefore = world.double.store.conversations.size;
    const r = await call(admin, 'test-runner', { testType: 'edge' });
    expect(r.status).toBe(200);
    expect(r.body.output, JSON.stringify(r.body.output)).toBeDefined();
    expect(r.body).toMatchObject({ success: true, summary: { total: 9, passed: 9, failed: 0, notConfigured: 0 } });
    expect(world.double.store.conversations.size).toBe(conversationsBefore);
    expect(snapshot(userDisplayId)).toEqual(before);
    await new Promise((res) => setTimeout(res, 300));
    expect((await mails(world.stack)).length).toBe(mailsBefore);
  });

  it('after Chatwoot is reset the checks make a new diagnostics conversation instead of failing', async () => {
    const first = await call(admin, 'admin-chatwoot-diagnostics', {});
    expect(first).toMatchObject({ status: 200, body: { success: true, created: false } });
    world.double.wipeConversations();
    const again = await call(admin, 'admin-chatwoot-diagnostics', {});
    expect(again).toMatchObject({ status: 200, body: { success: true, created: true } });
    expect(again.body.conversation_id).not.toBe(first.body.conversation_id);
    const results = await runPageChecks(world.ref, admin);
    expect(results.filter((x) => !x.success).map((x) => x.name)).toEqual([]);
  });

  it('a member cannot use the diagnostics function or the diagnostics send', async () => {
    const demo = await signIn(world.ref, SEEDED.demo);
    expect(await call(demo, 'admin-chatwoot-diagnostics', {})).toEqual({ status: 403, body: { error: 'Super admin role required' } });
    expect(await call(demo, 'admin-chatwoot-send', { diagnostics: true, content: 'x' })).toEqual({ status: 403, body: { error: 'Super admin role required' } });
  });
});

describe('checks on a default install (no Chatwoot configured)', () => {
  const shared = inject('stack');
  it('report Chatwoot and the webhook as not configured, never as failed', async () => {
    const client = await signIn(shared, SEEDED.admin);
    const results = await runPageChecks(shared, client);
    expect(summarize(results)).toMatchObject({ total: 9, passed: 2, failed: 0, notConfigured: 7 });
    expect(results.filter((r) => r.success).map((r) => r.name)).toEqual(['test-function', 'auth-link']);

    const runner = await call(client, 'test-runner', { testType: 'edge' });
    expect(runner.body).toMatchObject({ success: true, summary: { total: 9, passed: 2, failed: 0, notConfigured: 7 } });
    expect((runner.body.output as string[]).filter((l) => l.startsWith('○'))).toHaveLength(7);
  });
});
