// Members with an account and a conversation, and small files of each kind, for the Storage API tests.
import { randomUUID } from 'node:crypto';
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

export { cuttingLink } from '../helpers/cutting-link.ts';
