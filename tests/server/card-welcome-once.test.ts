// Issue 37 user item 7: 'Aktivovať špecialistu' on a card for a specialist the user already chats
// with reopens that chat without a second greeting; a conversation that was never greeted still gets
// the card's welcome (issue 21 item 5), once however often the card is tapped.
import { describe, expect, inject, it } from 'vitest';
import { SPECIALIST, call, freshUser, messagesOf, sql } from './functions-helpers.ts';

const stack = inject('stack');

async function cardFor(home: string, welcome: string): Promise<string> {
  const [card] = await sql<{ id: string }>(
    stack,
    `insert into public.messages (conversation_id, text, type, direction, source, payload)
     values ($1, null, 'json', 'specialist', 'system', $2) returning id`,
    [home, { kind: 'rich_content', specialist_id: SPECIALIST.lucia, welcome_text: welcome }],
  );
  return card!.id;
}

const welcomes = async (conversationId: string) =>
  (await messagesOf(stack, conversationId)).filter((m) => m.direction === 'specialist').map((m) => m.text);

describe('a card opens an existing conversation with at most one greeting (issue 37 item 7)', () => {
  it('a chat greeted through Chatovať gets no second greeting from the card', async () => {
    const u = await freshUser(stack, 'card-once');
    const home = (await call(u.client, 'ensure-first-conversation')).body.conversation_id as string;
    const chat = await call(u.client, 'start-conversation', { specialist_id: SPECIALIST.lucia });
    expect(chat.body).toMatchObject({ created: true });
    const id = chat.body.conversation_id as string;
    const greeted = await welcomes(id);
    expect(greeted).toHaveLength(1);

    const card = await cardFor(home, 'Vitajte späť u Lucie!');
    const again = await call(u.client, 'start-conversation', { specialist_id: SPECIALIST.lucia, card_id: card });
    expect(again).toEqual({ status: 200, body: { conversation_id: id, created: false } });
    expect(await welcomes(id)).toEqual(greeted);
  });

  it('a chat never greeted hears the card once, however often it is tapped', async () => {
    const u = await freshUser(stack, 'card-first');
    const home = (await call(u.client, 'ensure-first-conversation')).body.conversation_id as string;
    const [conv] = await sql<{ id: string }>(
      stack,
      `insert into public.conversations (account_id, specialist_id)
       select account_id, $2 from public.conversations where id = $1 returning id`,
      [home, SPECIALIST.lucia],
    );
    const card = await cardFor(home, 'Vitajte u Lucie!');
    const taps = await Promise.all([1, 2, 3].map(() => call(u.client, 'start-conversation', { specialist_id: SPECIALIST.lucia, card_id: card })));
    for (const tap of taps) expect(tap).toEqual({ status: 200, body: { conversation_id: conv!.id, created: false } });
    expect(await welcomes(conv!.id)).toEqual(['Vitajte u Lucie!']);
  });
});
