// Helpers for the auth contract tests: the dev mailbox, following mailed links, PKCE clients and
// clients that present a chosen client IP (X-Forwarded-For) to the rate limits.
import { createClient } from '@supabase/supabase-js';
import { WebSocket } from 'ws';
import { expect } from 'vitest';
import type { ProvidedStack } from '../helpers/global-stack.ts';

type StackRef = Pick<ProvidedStack, 'url' | 'anonKey'>;

export interface DevMail {
  to: string;
  subject: string;
  text: string;
  links: string[];
  sent_at: string;
}

/** The stack's public URL (links and allowed redirects); test stacks announce the address they bind. */
export const siteUrl = (stack: { url: string }) => stack.url;

/** The newest mail to `to`; waits briefly because mails are sent after the response. */
export async function latestMail(stack: { url: string }, to: string): Promise<DevMail> {
  for (let i = 0; i < 50; i++) {
    const res = await fetch(`${stack.url}/_dev/mail.json`);
    const mails = (await res.json()) as DevMail[];
    const mail = mails.find((m) => m.to === to);
    if (mail) return mail;
    await new Promise((r) => setTimeout(r, 50));
  }
  throw new Error(`no mail to ${to}`);
}

/** Opens a mailed link as a browser would (without following the redirect) and returns Location. */
export async function openLink(stack: { url: string }, link: string): Promise<URL> {
  const url = new URL(link);
  const local = new URL(url.pathname + url.search, stack.url);
  const res = await fetch(local, { redirect: 'manual' });
  expect(res.status).toBe(303);
  const location = res.headers.get('location');
  expect(location).toBeTruthy();
  return new URL(location!);
}

export function fragmentParams(location: URL): URLSearchParams {
  return new URLSearchParams(location.hash.slice(1));
}

export function memoryStorage() {
  const items = new Map<string, string>();
  return {
    getItem: (k: string) => items.get(k) ?? null,
    setItem: (k: string, v: string) => void items.set(k, v),
    removeItem: (k: string) => void items.delete(k),
  };
}

export function pkceClient(stack: StackRef) {
  return createClient(stack.url, stack.anonKey, {
    auth: { flowType: 'pkce', storage: memoryStorage(), persistSession: true, autoRefreshToken: false, detectSessionInUrl: false },
    realtime: { transport: WebSocket as never },
  });
}

export function clientFromIp(stack: StackRef, ip: string) {
  return createClient(stack.url, stack.anonKey, {
    auth: { persistSession: false, autoRefreshToken: false, detectSessionInUrl: false },
    global: { headers: { 'x-forwarded-for': ip } },
    realtime: { transport: WebSocket as never },
  });
}

let ipSeq = 0;
/** A fresh client IP per call, so rate-limit tests never share a window by accident. */
export const freshIp = () => `203.0.113.${++ipSeq % 250}`;

/** Raw call to /auth/v1 with the anon key, for shapes supabase-js does not expose. */
export async function authFetch(
  stack: StackRef,
  path: string,
  init: { method?: string; body?: string; token?: string; headers?: Record<string, string> } = {},
): Promise<Response> {
  return fetch(`${stack.url}/auth/v1${path}`, {
    method: init.method ?? 'GET',
    headers: {
      apikey: stack.anonKey,
      'content-type': 'application/json',
      ...(init.token ? { authorization: `Bearer ${init.token}` } : {}),
      ...init.headers,
    },
    ...(init.body !== undefined ? { body: init.body } : {}),
  });
}
