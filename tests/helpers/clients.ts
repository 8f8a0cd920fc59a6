// Unmodified @supabase/supabase-js clients against a test stack. Node 20 has no global WebSocket, so the
// realtime transport is the `ws` package (as reference/supabase-wire.md notes).
import { createClient } from '@supabase/supabase-js';
import { randomUUID } from 'node:crypto';
import { WebSocket } from 'ws';
import type { ProvidedStack } from './global-stack.ts';

function make(url: string, key: string, headers?: Record<string, string>) {
  return createClient(url, key, {
    auth: { persistSession: false, autoRefreshToken: false, detectSessionInUrl: false },
    realtime: { transport: WebSocket as never },
    ...(headers ? { global: { headers } } : {}),
  });
}

/** The client type without generated database types (rows are loosely typed). */
export type Client = ReturnType<typeof make>;

export function anonClient(stack: Pick<ProvidedStack, 'url' | 'anonKey'>): Client {
  return make(stack.url, stack.anonKey);
}

export function serviceClient(stack: Pick<ProvidedStack, 'url' | 'serviceRoleKey'>): Client {
  return make(stack.url, stack.serviceRoleKey);
}

/** A client with any API key (publishable, secret, legacy), optionally with extra headers (User-Agent). */
export function keyClient(url: string, key: string, headers?: Record<string, string>): Client {
  return make(url, key, headers);
}

export function uniqueEmail(prefix = 'user'): string {
  return `${prefix}-${randomUUID().slice(0, 8)}@example.test`;
}
