// Issue 16 item 9: start_conversation (SECURITY DEFINER) used to store the caller's p_welcome_text as a
// direction 'specialist' message, so a member could plant a fake specialist message with a link. The
// welcome now comes only from a server-written card message of the caller's own account.
import { describe, expect, inject, it } from 'vitest';
import { SPECIALIST, call, freshUser, messagesOf, sql } from './functions-helpers.ts';

const stack = inject('stack');
const FAKE = 'Váš účet bude zablokovaný, overte sa tu: https://zly.example/login';

async function card(conversationId: string, payload: Record<string, unknown>): Promise<string> {
  const [row] = await sql<{ id: string }>(
    stack,
    `insert into public.messages (conversation_id, text, type, direction, source, payload)
     values ($1, null, 'json', 'specialist', 'system', $2) returning id`,
    [conversationId, payload],
  );
  return row!.id;
}

async function messagesWithText(text: string): Promise<number> {
  const [r] = await sql<{ n: string }>(stack, 'select count(*) as n from public.messages where text = $1', [text]);
  return Number(r!.n);
}

describe('start_conversation welcome texts come only from the server (issue 16 item 9)', () => {
  // Without a card, an AI specialist greets with its own row's data (issue 21 item 5): the only message.
  const serverGreetingOnly = [expect.stringMatching(/^Dobrý deň, som Lucia .*S čím vám môžem pomôcť\?$/)];

  it("a member calling the RPC with a fake text gets the conversation and only the server's greeting", async () => {
    const u = await freshUser(stack, 'welcome-forge');
    const r = await u.client.rpc('start_conversation', { p_specialist_id: SPECIALIST.lucia, p_welcome_text: FAKE });
    expect(r.error).toBeNull();
    const id = (r.data as { conversation_id: string }).conversation_id;
    expect((await messagesOf(stack, id)).map((m) => m.text)).toEqual(serverGreetingOnly);
    expect(await messagesWithText(FAKE)).toBe(0);
  });

  it('a fake text through the start-conversation function is ignored too', async () => {
    const u = await freshUser(stack, 'welcome-forge-fn');
    const r = await call(u.client, 'start-conversation', { specialist_id: SPECIALIST.lucia, welcome_text: FAKE });
    expect(r.status).toBe(200);
    expect((await messagesOf(stack, r.body.conversation_id as string)).map((m) => m.text)).toEqual(serverGreetingOnly);
  });

  it("a member's own message dressed as a card, or another account's card, lends no welcome", async () => {
    const u = await freshUser(stack, 'welcome-forge-card');
    const home = (await call(u.client, 'ensure-first-conversation')).body.conversation_id as string;
    // The member's own message with a card-like payload (members may only write direction 'user').
    const own = await u.client.rpc('send_message', {
      p_conversation_id: home,
      p_text: 'karta',
      p_client_correlation_id: crypto.randomUUID(),
      p_payload: { specialist_id: SPECIALIST.lucia, welcome_text: FAKE },
    });
    expect(own.error).toBeNull();
    const ownId = (own.data as { id: string }).id;
    const a = await u.client.rpc('start_conversation', { p_specialist_id: SPECIALIST.lucia, p_card_id: ownId });
    expect(a.error).toBeNull();
    expect(await messagesOf(stack, (a.data as { conversation_id: string }).conversation_id)).toEqual([]);

    // A real card of another account: its id is not the caller's to use.
    const other = await freshUser(stack, 'welcome-other');
    const otherHome = (await call(other.client, 'ensure-first-conversation')).body.conversation_id as string;
    const foreign = await card(otherHome, { kind: 'rich_content', specialist_id: SPECIALIST.assistant, welcome_text: FAKE });
    const b = await u.client.rpc('start_conversation', { p_specialist_id: SPECIALIST.assistant, p_card_id: foreign });
    expect(b.error).toBeNull();
    const msgs = await messagesOf(stack, (b.data as { conversation_id: string }).conversation_id);
    expect(msgs.map((m) => m.text)).not.toContain(FAKE);
    expect(await messagesWithText(FAKE)).toBe(0);
  });

  it("the card's own welcome is used, for the specialist the card offers only", async () => {
    const u = await freshUser(stack, 'welcome-card');
    const home = (await call(u.client, 'ensure-first-conversation')).body.conversation_id as string;
    const id = await card(home, { kind: 'rich_content', specialist_id: SPECIALIST.lucia, welcome_text: 'Vitajte u Lucie!' });
    const r = await u.client.rpc('start_conversation', { p_specialist_id: SPECIALIST.lucia, p_card_id: id, p_welcome_text: FAKE });
    expect(r.error).toBeNull();
    const msgs = await messagesOf(stack, (r.data as { conversation_id: string }).conversation_id);
    expect(msgs.map((m) => [m.direction, m.text])).toEqual([['specialist', 'Vitajte u Lucie!']]);
  });

  // Issue 37 user item 7 replaced issue 21 item 5 here: a chat already greeted gets no second greeting
  // (the never-greeted case, greeted once by the card: card-welcome-once.test.ts).
  it('a card for a specialist whose greeted conversation exists adds no second greeting (issue 37 item 7)', async () => {
    const u = await freshUser(stack, 'welcome-card-existing');
    const home = (await call(u.client, 'ensure-first-conversation')).body.conversation_id as string;
    const first = await u.client.rpc('start_conversation', { p_specialist_id: SPECIALIST.lucia });
    expect(first.error).toBeNull();
    const existing = (first.data as { conversation_id: string }).conversation_id;
    const id = await card(home, { kind: 'rich_content', specialist_id: SPECIALIST.lucia, welcome_text: 'Vitajte znova u Lucie!' });
    // Two taps racing and a third later: the chat keeps its one greeting.
    const taps = await Promise.all([1, 2].map(() => u.client.rpc('start_conversation', { p_specialist_id: SPECIALIST.lucia, p_card_id: id })));
    const again = await u.client.rpc('start_conversation', { p_specialist_id: SPECIALIST.lucia, p_card_id: id });
    for (const r of [...taps, again]) {
      expect(r.error).toBeNull();
      expect(r.data).toEqual({ conversation_id: existing, created: false });
    }
    const texts = (await messagesOf(stack, existing)).map((m) => m.text);
    expect(texts).toEqual([...serverGreetingOnly]);
  });
});
