// Members with an account and a conversation, and small files of each kind, for the Storage API tests.
import { randomUUID } from 'node:crypto';
import { createServer, connect, type AddressInfo, type Socket } from 'node:net';
import { expect } from 'vitest';
import { anonClient, serviceClient, uniqueEmail, type Client } from '../helpers/clients.ts';
import type { ProvidedStack } from '../helpers/global-stack.ts';

export interface Member {
  client: Client;
  token: string;
  userId: string;
  email: string;
  accountId: string;
  conversationId: string;
}

export async function member(stack: ProvidedStack, prefix = 'storage'): Promise<Member> {
  const email = uniqueEmail(prefix);
  const created = await serviceClient(stack).auth.admin.createUser({ email, password: 'heslo12345', email_confirm: true });
  expect(created.error).toBeNull();
  const client = anonClient(stack);
  const { data, error } = await client.auth.signInWithPassword({ email, password: 'heslo12345' });
  expect(error).toBeNull();
  const conv = await client.rpc('ensure_first_conversation');
  expect(conv.error).toBeNull();
  const conversationId = (conv.data as { conversation_id: string }).conversation_id;
  const acc = await client.from('conversations').select('account_id').eq('id', conversationId).single();
  return {
    client,
    token: data.session!.access_token,
    userId: data.user!.id,
    email,
    accountId: acc.data!.account_id as string,
    conversationId,
  };
}

/** {account}/{conversation}/{attachment}/{file}: the path the policies expect. */
export function attachmentPath(m: Pick<Member, 'accountId' | 'conversationId'>, file: string): string {
  return `${m.accountId}/${m.conversationId}/${randomUUID()}/${file}`;
}

/** A valid 1×1 PNG. */
export const PNG = Buffer.from(
  'iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNk+M9QDwADhgGAWjR9awAAAABJRU5ErkJggg==',
  'base64',
);
export const PDF = Buffer.from('%PDF-1.4\n1 0 obj <<>> endobj\ntrailer <<>>\n%%EOF\n');
export const HTML = Buffer.from('<!DOCTYPE html><html><body><script>alert(document.cookie)</script></body></html>');
export const SVG = Buffer.from('<svg xmlns="http://www.w3.org/2000/svg"><script>alert(1)</script></svg>');

export function storageUrl(stack: { url: string }, path: string): string {
  return `${stack.url}/storage/v1${path}`;
}

/**
 * A TCP relay to `target` that drops every connection once `cutAfter` bytes of requests passed
 * through it (a lost link), until heal(). forwarded() counts the request bytes that reached the server.
 */
export async function cuttingLink(target: URL, cutAfter: number) {
  let forwarded = 0;
  let limit = cutAfter;
  const sockets = new Set<Socket>();
  const server = createServer((client) => {
    const upstream = connect(Number(target.port), target.hostname);
    sockets.add(client).add(upstream);
    const drop = () => {
      client.destroy();
      upstream.destroy();
    };
    client.on('data', (d: Buffer) => {
      const room = limit - forwarded;
      if (d.length > room) {
        if (room > 0) upstream.write(d.subarray(0, room));
        forwarded += Math.max(room, 0);
        upstream.end(drop);
        return;
      }
      forwarded += d.length;
      upstream.write(d);
    });
    upstream.pipe(client);
    client.on('error', drop).on('close', drop);
    upstream.on('error', drop);
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    forwarded: () => forwarded,
    heal: () => {
      limit = Infinity;
    },
    close: () => {
      for (const s of sockets) s.destroy();
      return new Promise<void>((r) => server.close(() => r()));
    },
  };
}
