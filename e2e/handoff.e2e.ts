// Issue 39 handoff journey (sync/SPEC.md R14): on a stack wired to the Chatwoot double, one user on two
// devices in an AI chat asks for a human; both headers change; a message written then queues no AI
// answer; a Chatwoot agent's reply through the double's real webhook puts the agent's name in both
// headers and the list. Screenshots (phone 390×844, desktop 1440×900) go to e2e/artifacts/screenshots.
import { mkdirSync } from 'node:fs';
import { expect, test, type Page } from '@playwright/test';
import type pg from 'pg';
import type { ChatwootDouble } from '../tests/doubles/chatwoot/server.ts';
import { sql as query, startChatwootStack, toast, type ChatwootStack } from './admin-helpers.ts';
import { storeSession } from './stored-session.ts';

test.describe.configure({ mode: 'serial' });
// Two devices, two sign-ins and eight screenshots on a second stack: measured 2.6–3 min at load 40.
test.setTimeout(300_000);

const WEBHOOK_SECRET = 'e2e-handoff-secret-0123456789abcdefghijklmn';
const SHOTS = process.env.HANDOFF_SHOTS ?? 'e2e/artifacts/screenshots';
const PHONE = { width: 390, height: 844 };
const DESKTOP = { width: 1440, height: 900 };
const LUCIA = '00000000-0000-4000-8000-000000000010'; // FREE plan, AI

let cw: ChatwootStack | undefined;
let double: ChatwootDouble;
let origin: string;

const sql = <T extends pg.QueryResultRow>(text: string, params: unknown[] = []) => query<T>(text, params, cw!.stack.databaseUrl);

/** A confirmed user on this file's stack, through its auth admin API (the signup trigger gives it an account). */
async function freshUser(): Promise<{ email: string; id: string }> {
  const key = cw!.stack.keys.serviceRoleKey;
  const email = `handoff-${Date.now()}-${Math.floor(Math.random() * 1e6)}@poradna.test`;
  const res = await fetch(`${cw!.stack.url}/auth/v1/admin/users`, {
    method: 'POST',
    headers: { apikey: key, Authorization: `Bearer ${key}`, 'Content-Type': 'application/json' },
    body: JSON.stringify({ email, password: 'poradna123', email_confirm: true }),
  });
  expect(res.ok, await res.clone().text()).toBe(true);
  return { email, id: ((await res.json()) as { id: string }).id };
}

async function shoot(page: Page, name: string): Promise<void> {
  await page.setViewportSize(DESKTOP);
  await page.screenshot({ path: `${SHOTS}/${name}-desktop.png`, animations: 'disabled' });
  await page.setViewportSize(PHONE);
  await page.screenshot({ path: `${SHOTS}/${name}-phone.png`, animations: 'disabled' });
}

test.beforeAll(async () => {
  test.setTimeout(180_000);
  mkdirSync(SHOTS, { recursive: true });
  cw = await startChatwootStack(WEBHOOK_SECRET);
  ({ double, origin } = cw);
  double.addWebhook(
    `${cw.stack.url}/functions/v1/chatwoot-webhook?secret=${WEBHOOK_SECRET}`,
    ['message_created', 'message_updated', 'conversation_status_changed', 'conversation_updated'],
    WEBHOOK_SECRET,
  );
});

test.afterAll(async () => {
  await cw?.destroy();
});

test('R14.6 request a human on one device: both headers change; an agent reply names the agent and the AI stays silent', async ({ browser }) => {
  const user = await freshUser();
  const [{ account_id: accountId }] = (await sql<{ account_id: string }>('select account_id from public.account_users where user_id = $1', [user.id])) as [{ account_id: string }];
  const [{ id: conversationId }] = (await sql<{ id: string }>(
    `insert into public.conversations (account_id, specialist_id) values ($1, $2) returning id`,
    [accountId, LUCIA],
  )) as [{ id: string }];
  await sql(`insert into public.messages (conversation_id, direction, source, text) values ($1, 'specialist', 'ai', 'Dobrý deň, som AI špecialistka.')`, [conversationId]);

  const devices = await Promise.all([browser.newContext({ viewport: PHONE, locale: 'sk-SK', timezoneId: 'Europe/Bratislava' }), browser.newContext({ viewport: PHONE, locale: 'sk-SK', timezoneId: 'Europe/Bratislava' })]);
  const [a, b] = await Promise.all(devices.map((d) => d.newPage()));
  for (const page of [a!, b!]) {
    await storeSession(page, user.email, { origin });
    await page.goto(`${origin}/app/chats/${conversationId}`);
    await expect(page.getByTestId('chat-owner')).toHaveText('Odpovedá AI');
  }
  await shoot(a!, 'handoff-1-ai');

  // Device A asks for a human: A is told what happens next, and both headers say since when.
  await a!.getByRole('button', { name: 'Chcem hovoriť s človekom' }).click();
  await expect(toast(a!, /Požiadali ste o špecialistu/)).toBeVisible();
  const [{ at }] = (await sql<{ at: string }>(
    `select to_char(owner_requested_at at time zone 'Europe/Bratislava', 'HH24:MI') as at from public.conversations where id = $1`,
    [conversationId],
  )) as [{ at: string }];
  for (const page of [a!, b!]) {
    await expect(page.getByTestId('chat-owner')).toHaveText(`Čaká na špecialistu od ${at}`);
    await expect(page.getByTestId('owner-waiting-note')).toBeVisible();
    await expect(page.getByRole('button', { name: 'Chcem hovoriť s človekom' })).toHaveCount(0);
  }
  await shoot(b!, 'handoff-2-waiting');

  // R14.4: a message written while waiting is stored for the human, and no AI answer is queued.
  await a!.getByLabel('Správa').fill('Potrebujem poradiť s faktúrou.');
  await a!.getByRole('button', { name: 'Odoslať' }).click();
  await expect
    .poll(async () => (await sql('select 1 from public.messages where conversation_id = $1 and text = $2', [conversationId, 'Potrebujem poradiť s faktúrou.'])).length)
    .toBe(1);
  expect(await sql('select id from public.ai_reply_jobs where conversation_id = $1', [conversationId])).toEqual([]);

  // A Chatwoot agent answers (the conversation linked to the double by hand, as the admin's link does).
  const { contactInbox } = double.createContact(double.inboxes[0]!.id, { name: 'Handoff' });
  const displayId = double.openConversation(contactInbox.id).displayId;
  await sql('update public.conversations set chatwoot_conversation_id = $2 where id = $1', [conversationId, displayId]);
  const agent = double.agents[1]!;
  double.agentReply(displayId, 'Dobrý deň, tu je človek. Pozriem sa na to.', { agentId: agent.id });
  await double.webhooksIdle();
  for (const page of [a!, b!]) {
    await expect(page.getByTestId('chat-owner')).toHaveText(`Píše ${agent.name}`);
    await expect(page.getByTestId('message-scroller').getByText('Dobrý deň, tu je človek. Pozriem sa na to.')).toBeVisible();
  }
  await shoot(a!, 'handoff-3-human');

  // R14.3: the AI stays silent: no job was ever queued, its only message is the greeting from before
  // the request, and an AI write now is refused by the database. (The app's send into a conversation
  // linked to Chatwoot goes through Chatwoot, which this stack has no contact for: not exercised here.)
  expect(await sql('select id from public.ai_reply_jobs where conversation_id = $1', [conversationId])).toEqual([]);
  expect(await sql(`select text from public.messages where conversation_id = $1 and source = 'ai'`, [conversationId])).toEqual([{ text: 'Dobrý deň, som AI špecialistka.' }]);
  await expect(sql(`insert into public.messages (conversation_id, direction, source, text) values ($1, 'specialist', 'ai', 'AI')`, [conversationId])).rejects.toMatchObject({
    code: 'PT409',
  });

  // The list row says who answers too.
  await b!.goto(`${origin}/app/chats`);
  const row = b!.getByTestId('conversation-row').filter({ hasText: 'Lucia' });
  await expect(row.getByTestId('row-owner')).toHaveText(`Píše ${agent.name}`);
  await shoot(b!, 'handoff-4-list');
  await Promise.all(devices.map((d) => d.close()));
});
