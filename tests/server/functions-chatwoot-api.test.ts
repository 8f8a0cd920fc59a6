// The admin-chatwoot-* functions succeeding against the Chatwoot double (a dedicated stack with
// Chatwoot configured), the send retries that must not post twice, and the test-runner's edge suite
// going green once Chatwoot is there.
import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  SEEDED,
  SPECIALIST,
  call,
  messagesOf,
  signIn,
  sql,
  startChatwootWorld,
  waitFor,
  type ChatwootWorld,
  type Client,
} from './functions-helpers.ts';

let world: ChatwootWorld;
let admin: Client;
let demo: Client;
let druhyAccount: string;
let displayId: number;

beforeAll(async () => {
  world = await startChatwootWorld();
  admin = await signIn(world.ref, SEEDED.admin);
  demo = await signIn(world.ref, SEEDED.demo);
  const [acc] = await sql<{ account_id: string }>(
    world.ref,
    'select au.account_id from account_users au join auth.users u on u.id = au.user_id where u.email = $1',
    [SEEDED.druhy],
  );
  druhyAccount = acc!.account_id;
});

afterAll(async () => {
  await world?.stop();
});

const posts = () =>
  world.double.requests.filter((r) => r.method === 'POST' && /\/conversations\/\d+\/messages$/.test(r.path));
const ourStatus = async (id: string) =>
  (await sql<{ status: string }>(world.ref, 'select status from conversations where id = $1', [id]))[0]
    ?.status;

describe('admin-chatwoot-* against Chatwoot', () => {
  it('admin-chatwoot-inboxes lists the inboxes', async () => {
    const r = await call(admin, 'admin-chatwoot-inboxes');
    expect(r.status).toBe(200);
    expect(r.body.success).toBe(true);
    const inboxes = r.body.inboxes as {
      id: number;
      name: string;
      channel_type: string;
      inbox_identifier: string;
    }[];
    expect(inboxes.map((i) => i.id)).toEqual(world.double.inboxes.map((i) => i.id));
    expect(inboxes.every((i) => i.channel_type === 'Channel::Api' && i.inbox_identifier.length > 0)).toBe(
      true,
    );
  });

  it('admin-chatwoot-send {account_id, inbox_id, content} opens, links and sends for any account', async () => {
    const inbox = world.inboxOf[SPECIALIST.katarina]!;
    const r = await call(admin, 'admin-chatwoot-send', {
      account_id: druhyAccount,
      inbox_id: inbox,
      content: 'Správa od správcu',
    });
    expect(r.status).toBe(200);
    expect(r.body).toMatchObject({ success: true, hasChatwoot: true });
    displayId = r.body.chatwoot_conversation_id as number;
    const conv = world.double.actions.conversation(world.double.accountId, displayId);
    expect(conv.inboxId).toBe(inbox);
    const ours = (r.body.messageData as { conversation_id: string }).conversation_id;
    const [row] = await sql<{ account_id: string; specialist_id: string }>(
      world.ref,
      'select account_id, specialist_id from conversations where id = $1',
      [ours],
    );
    expect(row).toEqual({ account_id: druhyAccount, specialist_id: SPECIALIST.katarina });
    // A second send reuses the link and the contact.
    const again = await call(admin, 'admin-chatwoot-send', {
      account_id: druhyAccount,
      inbox_id: inbox,
      content: 'Druhá správa',
    });
    expect(again.body.chatwoot_conversation_id).toBe(displayId);
    expect(
      world.double.store
        .messagesOf(conv.id)
        .filter((m) => m.messageType === 0)
        .map((m) => m.content),
    ).toEqual(['Správa od správcu', 'Druhá správa']);
    // The member of that account now gets the contact's token.
    const druhy = await signIn(world.ref, SEEDED.druhy);
    const token = await call(druhy, 'chatwoot-pubsub-token');
    expect(token.body.pubsub_token).toBe(
      world.double.store.contactInboxes.get(conv.contactInboxId)!.pubsubToken,
    );
  });

  it('admin-chatwoot-conversations lists conversations and reads one with its messages', async () => {
    const list = await call(admin, 'admin-chatwoot-conversations', {});
    expect(list.status).toBe(200);
    expect((list.body.conversations as { id: number }[]).map((c) => c.id)).toContain(displayId);
    const one = await call(admin, 'admin-chatwoot-conversations', { conversation_id: displayId });
    expect(one.body).toMatchObject({ success: true, conversation: { id: displayId } });
    expect((one.body.messages as { content: string }[]).map((m) => m.content)).toContain('Správa od správcu');
  });

  it('admin-chatwoot-assign assigns and unassigns', async () => {
    const agent = world.double.agents[3]!;
    const r = await call(admin, 'admin-chatwoot-assign', {
      conversation_id: displayId,
      assignee_id: agent.id,
    });
    expect(r).toMatchObject({
      status: 200,
      body: { success: true, conversation_id: displayId, assignee: { id: agent.id } },
    });
    expect(world.double.actions.conversation(world.double.accountId, displayId).assigneeId).toBe(agent.id);
    const off = await call(admin, 'admin-chatwoot-assign', { conversation_id: displayId, assignee_id: null });
    expect(off.body).toMatchObject({ success: true, assignee: null });
    expect(world.double.actions.conversation(world.double.accountId, displayId).assigneeId).toBeNull();
  });

  it('admin-chatwoot-set-custom-attributes replaces the hash', async () => {
    const r = await call(admin, 'admin-chatwoot-set-custom-attributes', {
      conversation_id: displayId,
      attributes: { plan: 'FREE', vip: false },
    });
    expect(r).toEqual({
      status: 200,
      body: { success: true, conversation_id: displayId, custom_attributes: { plan: 'FREE', vip: false } },
    });
    expect(world.double.actions.conversation(world.double.accountId, displayId).customAttributes).toEqual({
      plan: 'FREE',
      vip: false,
    });
  });

  it('admin-chatwoot-toggle-status resolves and reopens; the webhook keeps our conversation in step', async () => {
    const [ours] = await sql<{ id: string }>(
      world.ref,
      'select id from conversations where chatwoot_conversation_id = $1',
      [displayId],
    );
    const resolved = await call(admin, 'admin-chatwoot-toggle-status', {
      conversation_id: displayId,
      to: 'resolved',
    });
    expect(resolved).toEqual({
      status: 200,
      body: { success: true, conversation_id: displayId, current_status: 'resolved' },
    });
    await world.double.webhooksIdle();
    await waitFor(async () => (await ourStatus(ours!.id)) === 'completed', 'completed');
    const opened = await call(admin, 'admin-chatwoot-toggle-status', {
      conversation_id: displayId,
      status: 'open',
    });
    expect(opened.body).toMatchObject({ current_status: 'open' });
    await world.double.webhooksIdle();
    await waitFor(async () => (await ourStatus(ours!.id)) === 'active', 'active again');
  });

  it("passes Chatwoot's own errors on as 502 with its message", async () => {
    expect(
      await call(admin, 'admin-chatwoot-toggle-status', { conversation_id: 99_999, to: 'open' }),
    ).toEqual({
      status: 502,
      body: { success: false, error: 'Chatwoot 404: Resource could not be found' },
    });
  });

  it('still refuses members (403)', async () => {
    expect(await call(demo, 'admin-chatwoot-inboxes')).toEqual({
      status: 403,
      body: { error: 'Super admin role required' },
    });
    expect(
      (await call(demo, 'admin-chatwoot-assign', { conversation_id: displayId, assignee_id: null })).status,
    ).toBe(403);
  });
});

describe('admin-chatwoot-send retries', () => {
  it('a retry after a lost reply finds the message in Chatwoot instead of posting it again', async () => {
    const conv = (await call(demo, 'start-conversation', { specialist_id: SPECIALIST.zuzana })).body
      .conversation_id as string;
    const correlation = randomUUID();
    const body = { conversation_id: conv, content: 'Stratená odpoveď', client_correlation_id: correlation };
    const first = await call(demo, 'admin-chatwoot-send', body);
    expect(first.status).toBe(200);
    await world.double.webhooksIdle();
    const sent = posts().length;
    const cwId = (first.body.messageData as { chatwoot_message_id: number }).chatwoot_message_id;
    // As if that attempt was a minute ago and neither its reply nor the webhook echo ever came back.
    await sql(
      world.ref,
      "update messages set chatwoot_message_id = null, created_at = created_at - interval '1 minute' where client_correlation_id = $1",
      [correlation],
    );

    const retry = await call(demo, 'admin-chatwoot-send', body);
    expect(retry.status).toBe(200);
    expect(retry.body).toMatchObject({ messageData: { chatwoot_message_id: cwId } });
    expect(posts()).toHaveLength(sent);
    expect([...world.double.store.messages.values()].filter((m) => m.sourceId === correlation)).toHaveLength(
      1,
    );
    expect(
      (await messagesOf(world.ref, conv)).filter((m) => m.client_correlation_id === correlation),
    ).toHaveLength(1);
  });

  it('the same send arriving several times at once reaches Chatwoot once', async () => {
    const conv = (await call(demo, 'start-conversation', { specialist_id: SPECIALIST.zuzana })).body
      .conversation_id as string;
    await call(demo, 'admin-chatwoot-send', {
      conversation_id: conv,
      content: 'Prepojenie',
      client_correlation_id: randomUUID(),
    });
    const correlation = randomUUID();
    const body = { conversation_id: conv, content: 'Trikrát naraz', client_correlation_id: correlation };
    const replies = await Promise.all([1, 2, 3].map(() => call(demo, 'admin-chatwoot-send', body)));
    expect(replies.map((r) => r.status)).toEqual([200, 200, 200]);
    const inChatwoot = [...world.double.store.messages.values()].filter((m) => m.sourceId === correlation);
    expect(inChatwoot).toHaveLength(1);
    const ids = replies.map((r) => r.body.messageData as { id: string; chatwoot_message_id: number });
    expect(new Set(ids.map((m) => m.id)).size).toBe(1);
    expect(ids.map((m) => m.chatwoot_message_id)).toEqual([
      inChatwoot[0]!.id,
      inChatwoot[0]!.id,
      inChatwoot[0]!.id,
    ]);
  });

  it("concurrent first sends link one conversation under the contact whose token the member's socket uses", async () => {
    const conv = (await call(demo, 'start-conversation', { specialist_id: SPECIALIST.jana })).body
      .conversation_id as string;
    const replies = await Promise.all(
      ['Prvá', 'Druhá', 'Tretia'].map((content) =>
        call(demo, 'admin-chatwoot-send', {
          conversation_id: conv,
          content,
          client_correlation_id: randomUUID(),
        }),
      ),
    );
    expect(replies.map((r) => r.status)).toEqual([200, 200, 200]);
    const ids = new Set(replies.map((r) => r.body.chatwoot_conversation_id));
    expect(ids.size).toBe(1);
    const linked = world.double.actions.conversation(world.double.accountId, [...ids][0] as number);
    const token = (await call(demo, 'chatwoot-pubsub-token')).body.tokens as {
      inbox_id: number;
      pubsub_token: string;
    }[];
    const mine = token.find((t) => t.inbox_id === world.inboxOf[SPECIALIST.jana]);
    expect(mine?.pubsub_token).toBe(
      world.double.store.contactInboxes.get(linked.contactInboxId)!.pubsubToken,
    );
    expect(
      world.double.store
        .messagesOf(linked.id)
        .map((m) => m.content)
        .sort(),
    ).toEqual(['Druhá', 'Prvá', 'Tretia']);
  });
});

describe('test-runner edge suite with Chatwoot configured', () => {
  it('passes all nine function checks', async () => {
    const r = await call(admin, 'test-runner', { testType: 'edge', testId: 'edge-cw' });
    const body = r.body as {
      success: boolean;
      output: string[];
      summary: { total: number; passed: number; failed: number };
    };
    expect(body.output.filter((l) => l.startsWith('✖'))).toEqual([]);
    expect(body).toMatchObject({ success: true, summary: { total: 9, passed: 9, failed: 0 } });
  });
});
