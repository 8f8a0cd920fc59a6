// Chatwoot's Application API (header api_access_token). Errors become ChatwootError with Chatwoot's
// own message ({error} or {message}) so admins see what Chatwoot said.
import { ChatwootUrlRefused, guardedFetch } from './guarded-fetch.ts';
import type { ChatwootSettings } from './settings.ts';

export const CHATWOOT_TIMEOUT_MS = 10_000;

export class ChatwootError extends Error {
  constructor(
    readonly status: number,
    message: string,
  ) {
    super(message);
  }
}

export async function chatwootApi<T>(
  s: ChatwootSettings,
  method: 'GET' | 'POST' | 'PATCH',
  path: string,
  body?: unknown,
  fetchImpl: typeof fetch = fetch,
): Promise<T> {
  let res: Response;
  try {
    res = await guardedFetch(
      s.baseUrl,
      `${s.baseUrl}/api/v1/accounts/${s.accountId}${path}`,
      {
        method,
        // A FormData body (a message with files, attachments.ts) sets its own multipart type.
        headers: body instanceof FormData ? { api_access_token: s.token } : { 'Content-Type': 'application/json', api_access_token: s.token },
        ...(body === undefined ? {} : { body: body instanceof FormData ? body : JSON.stringify(body) }),
        signal: AbortSignal.timeout(CHATWOOT_TIMEOUT_MS),
      },
      { allowPrivate: s.allowPrivate },
      fetchImpl,
    );
  } catch (err) {
    throw chatwootFetchError(err);
  }
  const text = await res.text();
  let parsed: unknown;
  try {
    parsed = text ? JSON.parse(text) : null;
  } catch {
    parsed = text;
  }
  if (!res.ok) {
    const p = parsed as { error?: unknown; message?: unknown } | null;
    const msg = typeof p?.error === 'string' ? p.error : typeof p?.message === 'string' ? p.message : res.statusText;
    throw new ChatwootError(res.status, `Chatwoot ${res.status}: ${msg}`);
  }
  return parsed as T;
}

/** A refused URL keeps its own (Slovak) reason; anything else is Chatwoot being unreachable. */
export function chatwootFetchError(err: unknown): ChatwootError {
  if (err instanceof ChatwootUrlRefused) return new ChatwootError(502, `Chatwoot URL bola odmietnutá: ${err.message}`);
  return new ChatwootError(502, `Chatwoot je nedostupný: ${(err as Error).message}`);
}
