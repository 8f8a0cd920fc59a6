// Every request to Chatwoot goes through here (issue 16 item 5: SSRF and token leak through the base
// URL). Invariants:
// - By default only https URLs whose host resolves to public addresses only (address.ts) are fetched;
//   CHATWOOT_ALLOW_PRIVATE_URLS=1 is the explicit opt-in for a Chatwoot on a private network (also
//   plain http), as the local Chatwoot double in the tests needs.
// - Redirects are followed by hand (at most MAX_REDIRECTS) and every hop is checked like the first, so
//   a public Chatwoot cannot bounce the request into the private network.
// - The api_access_token header goes only to the configured base URL's origin; a hop to any other
//   origin is sent without it.
// - A refused URL is refused before any connection is made, so no body from it can be returned.
// Known limit: the address is checked by resolving the name just before the fetch, which resolves it
// again; a DNS server that answers differently within that moment (rebinding) is not stopped here
// (the runtime's fetch cannot be pinned to an address portably on Deno and Node).
// node:dns runs on Node and on Supabase's Edge Runtime ("Edge Functions natively support ... Node
// built-in APIs": supabase.com/features/npm-compatibility).
import { lookup } from 'node:dns/promises';
import { ipLiteral, isPublicAddress } from './address.ts';

export const MAX_REDIRECTS = 3;

export const URL_MESSAGES = {
  invalid: 'API URL nie je platná adresa (napríklad https://chatwoot.example.com).',
  notHttps: 'API URL musí začínať https:// (Chatwoot na vnútornej sieti povolí nastavenie CHATWOOT_ALLOW_PRIVATE_URLS=1).',
  credentials: 'API URL nesmie obsahovať meno ani heslo.',
  unresolved: 'Adresu servera z API URL sa nepodarilo nájsť (DNS).',
  private:
    'API URL smeruje na lokálnu alebo vnútornú sieťovú adresu, kam server nesmie posielať požiadavky. ' +
    'Chatwoot na vnútornej sieti povolí nastavenie CHATWOOT_ALLOW_PRIVATE_URLS=1.',
  redirects: 'Chatwoot presmeroval požiadavku príliš veľakrát.',
} as const;

/** A URL the policy refuses; message is Slovak and shown to the admin. */
export class ChatwootUrlRefused extends Error {}

export interface UrlPolicy {
  allowPrivate: boolean;
  /** Addresses a host name resolves to; defaults to the system resolver (tests inject their own). */
  resolve?: (hostname: string) => Promise<string[]>;
}

export function allowPrivateUrls(env: Record<string, string | undefined>): boolean {
  return /^(1|true|yes)$/i.test(env.CHATWOOT_ALLOW_PRIVATE_URLS ?? '');
}

async function systemResolve(hostname: string): Promise<string[]> {
  const found = await lookup(hostname, { all: true, verbatim: true });
  return found.map((a) => a.address);
}

/** Parses and checks a Chatwoot URL; throws ChatwootUrlRefused with the reason. */
export async function checkChatwootUrl(raw: string, policy: UrlPolicy): Promise<URL> {
  let url: URL;
  try {
    url = new URL(raw.trim());
  } catch {
    throw new ChatwootUrlRefused(URL_MESSAGES.invalid);
  }
  const web = url.protocol === 'https:' || url.protocol === 'http:';
  if (!web || !url.hostname) throw new ChatwootUrlRefused(URL_MESSAGES.invalid);
  if (url.username || url.password) throw new ChatwootUrlRefused(URL_MESSAGES.credentials);
  if (policy.allowPrivate) return url;
  if (url.protocol !== 'https:') throw new ChatwootUrlRefused(URL_MESSAGES.notHttps);
  const literal = ipLiteral(url.hostname);
  let addresses: string[];
  if (literal) addresses = [literal];
  else {
    try {
      addresses = await (policy.resolve ?? systemResolve)(url.hostname);
    } catch {
      throw new ChatwootUrlRefused(URL_MESSAGES.unresolved);
    }
  }
  // Every address must be public: a name with one public and one private address could be fetched
  // on either.
  if (addresses.length === 0) throw new ChatwootUrlRefused(URL_MESSAGES.unresolved);
  if (!addresses.every(isPublicAddress)) throw new ChatwootUrlRefused(URL_MESSAGES.private);
  return url;
}

export interface GuardedInit {
  method: string;
  headers: Record<string, string>;
  /** A FormData body (multipart: a message with files) sets its own Content-Type. */
  body?: string | FormData;
  signal?: AbortSignal;
}

/**
 * fetch for Chatwoot: checks the URL and every redirect hop, strips api_access_token on a hop to
 * another origin than `baseUrl`'s. Throws ChatwootUrlRefused for a refused hop, fetch's own errors
 * for network failures.
 */
export async function guardedFetch(
  baseUrl: string,
  url: string,
  init: GuardedInit,
  policy: UrlPolicy,
  fetchImpl: typeof fetch = fetch,
): Promise<Response> {
  const home = new URL(baseUrl).origin;
  let current = url;
  let method = init.method;
  let body = init.body;
  for (let hop = 0; ; hop++) {
    const target = await checkChatwootUrl(current, policy);
    const headers: Record<string, string> = { ...init.headers };
    if (target.origin !== home) {
      for (const name of Object.keys(headers)) if (name.toLowerCase() === 'api_access_token') delete headers[name];
    }
    const res = await fetchImpl(target.href, {
      method,
      headers,
      redirect: 'manual',
      ...(body === undefined ? {} : { body }),
      ...(init.signal ? { signal: init.signal } : {}),
    });
    const location = res.headers.get('location');
    if (res.status < 300 || res.status >= 400 || !location) return res;
    await res.body?.cancel();
    if (hop >= MAX_REDIRECTS) throw new ChatwootUrlRefused(URL_MESSAGES.redirects);
    current = new URL(location, target).href;
    // As fetch does: 303, and 301/302 after a POST, continue as a GET without a body.
    if (res.status === 303 || ((res.status === 301 || res.status === 302) && method === 'POST')) {
      method = 'GET';
      body = undefined;
    }
  }
}
