// Unmodified @supabase/supabase-js clients against a test stack. Node 20 has no global WebSocket, so the
// realtime transport is the `ws` package (as reference/supabase-wire.md notes).
import { createClient } from '@supabase/supabase-js';
import { randomUUID } from 'node:crypto';
import { WebSocket } from 'ws';
import type { ProvidedStack } from './global-stack.ts';

export type Client = ReturnType<typeof createClient>;

export function anonClient(stack: Pick<ProvidedStack, 'url' | 'anonKey'>): Client {
  return createClient(stack.url, stack.anonKey, {
    auth: { persistSession: false, autoRefreshToken: false, detectSessionInUrl: false },
    realtime: { transport: WebSocket as never },
  });
}

export function serviceClient(stack: Pick<ProvidedStack, 'url' | 'serviceRoleKey'>): Client {
  return createClient(stack.url, stack.serviceRoleKey, {
    auth: { persistSession: false, autoRefreshToken: false, detectSessionInUrl: false },
    realtime: { transport: WebSocket as never },
  });
}

export function uniqueEmail(prefix = 'user'): string {
  return `${prefix}-${randomUUID().slice(0, 8)}@example.test`;
}
