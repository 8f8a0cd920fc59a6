// Issue 38, files in Chatwoot conversations, through the real stack and the Chatwoot double: a
// member's stored PDF reaches the Chatwoot conversation in the message create call as multipart
// attachments[] (Chatwoot's documented shape), and the row the app keeps is the server's rebuilt
// attachment list; a send naming an object outside the member's folder is refused before anything
// reaches Chatwoot (the check runs as the caller); an agent's file from a Chatwoot webhook is stored
// as a rich message the chat shows.
import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { SEEDED, SPECIALIST, call, messagesOf, signIn, startChatwootWorld, type ChatwootWorld, type Client } from './functions-helpers.ts';
import { PDF } from './storage-helpers.ts';

let world: ChatwootWorld;
let demo: Client;
let druhy: Client;
let conv: string;
let account: string;

beforeAll(async () => {
  world = await startChatwootWorld();
  demo = await signIn(world.ref, SEEDED.demo);
  druhy = await signIn(world.ref, SEEDED.druhy);
  conv = (await call(demo, 'start-conversation', { specialist_id: SPECIALIST.zuzana })).body.conversation_id as string;
  account = ((await demo.from('conversations').select('account_id').eq('id', conv).single()).data as { account_id: string }).account_id;
  await call(demo, 'admin-chatwoot-send', { conversation_id: conv, content: 'Prepojenie', client_correlation_id: randomUUID() });
}, 120_000);
afterAll(async () => {
  await world?.stop();
});

const inChatwoot = (correlation: string) => [...world.double.store.messages.values()].filter((m) => m.sourceId === correlation);
const stored = async (correlation: string) => (await messagesOf(world.ref, conv)).filter((m) => m.client_correlation_id === correlation);

async function upload(client: Client, path: string): Promise<void> {
  const { error } = await client.storage.from('attachments').upload(path, new Blob([PDF], { type: 'application/pdf' }), { contentType: 'application/pdf' });
  expect(error).toBeNull();
}

describe('Chatwoot attachments (issue 38)', () => {
  it("a member's PDF reaches the Chatwoot conversation as multipart attachments[] with the message", async () => {
    const id = randomUUID();
    const path = `${account}/${conv}/${id}/brief.pdf`;
    await upload(demo, path);
    const correlation = randomUUID();
    const res = await call(demo, 'admin-chatwoot-send', {
      conversation_id: conv,
      content: 'Posielam zadanie',
      client_correlation_id: correlation,
      payload: { attachments: [{ id, path, thumb_path: null, name: 'brief.pdf', width: null, height: null }] },
    });
    expect(res.status).toBe(200);
    // Chatwoot got one message with the file, in the create call itself.
    const [cw] = inChatwoot(correlation);
    expect(inChatwoot(correlation)).toHaveLength(1);
    expect(cw!.content).toBe('Posielam zadanie');
    expect(cw!.attachments).toHaveLength(1);
    expect(cw!.attachments[0]).toMatchObject({ fileType: 'file', fileSize: PDF.length });
    const post = world.double.requests.find((r) => r.method === 'POST' && /\/conversations\/\d+\/messages$/.test(r.path) && String(r.body).includes(correlation));
    expect(String(post?.body)).toContain('name="attachments[]"; filename="brief.pdf"');
    const bytes = Buffer.from(await (await fetch(cw!.attachments[0]!.dataUrl)).arrayBuffer());
    expect(bytes.equals(Buffer.from(PDF))).toBe(true);
    // Our row: stored once, the server's own list (storage reference, size from the object), Chatwoot's id.
    const rows = await stored(correlation);
    expect(rows).toHaveLength(1);
    const list = (rows[0]!.payload as { attachments: { data_url: string; file_size: number; name: string }[] }).attachments;
    expect(list).toEqual([expect.objectContaining({ data_url: `storage:attachments/${path}`, file_size: PDF.length, name: 'brief.pdf' })]);
    expect(rows[0]!.chatwoot_message_id).toBe(String(cw!.id));
  });

  it("a send naming another account's object is refused (400) and nothing reaches Chatwoot", async () => {
    // druhy stores a file in its own account's folder; demo names it in a send to demo's conversation.
    const other = (await druhy.from('conversations').select('id, account_id').limit(1).single()).data as { id: string; account_id: string };
    const id = randomUUID();
    const foreign = `${other.account_id}/${other.id}/${id}/tajne.pdf`;
    await upload(druhy, foreign);
    const correlation = randomUUID();
    const res = await call(demo, 'admin-chatwoot-send', {
      conversation_id: conv,
      content: 'Cudzí súbor',
      client_correlation_id: correlation,
      payload: { attachments: [{ id, path: foreign, thumb_path: null, name: 'tajne.pdf', width: null, height: null }] },
    });
    expect(res.status).toBe(400);
    expect(inChatwoot(correlation)).toEqual([]);
    expect(await stored(correlation)).toEqual([]);
    expect([...world.double.store.files.values()].filter((f) => f.name === 'tajne.pdf')).toEqual([]);
  });

  it("an agent's file from a Chatwoot webhook is stored as a rich message of the conversation", async () => {
    const cwConv = Number(((await demo.from('conversations').select('chatwoot_conversation_id').eq('id', conv).single()).data as { chatwoot_conversation_id: number }).chatwoot_conversation_id);
    const dataUrl = 'https://files.chatwoot.example/rails/active_storage/blobs/redirect/k1/navrh.png';
    const sent = world.double.agentReply(cwConv, 'Návrh loga', {
      attachments: [{ fileType: 'image', dataUrl, thumbUrl: dataUrl, fileSize: 2048, width: 640, height: 480 }],
    });
    const row = await waitForRow(Number(sent.id));
    expect(row.type).toBe('rich');
    expect(row.direction).toBe('specialist');
    expect((row.payload as { attachments: unknown[] }).attachments).toEqual([
      expect.objectContaining({ file_type: 'image', data_url: dataUrl, thumb_url: dataUrl, file_size: 2048, width: 640, height: 480 }),
    ]);
  });
});

async function waitForRow(chatwootId: number) {
  for (let i = 0; i < 100; i++) {
    const row = (await messagesOf(world.ref, conv)).find((m) => String(m.chatwoot_message_id) === String(chatwootId));
    if (row) return row;
    await new Promise((r) => setTimeout(r, 100));
  }
  throw new Error(`no row for Chatwoot message ${chatwootId}`);
}
