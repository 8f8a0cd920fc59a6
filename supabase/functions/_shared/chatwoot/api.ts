// Chatwoot's Application API (header api_access_token). Errors become ChatwootError with Chatwoot's
// own message ({error} or {message}) so admins see what Chatwoot said.
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
    res = await fetchImpl(`${s.baseUrl}/api/v1/accounts/${s.accountId}${path}`, {
      method,
      headers: { 'Content-Type': 'application/json', api_access_token: s.token },
      ...(body === undefined ? {} : { body: JSON.stringify(body) }),
      signal: AbortSignal.timeout(CHATWOOT_TIMEOUT_MS),
    });
  } catch (err) {
    throw new ChatwootError(502, `Chatwoot je nedostupný: ${(err as Error).message}`);
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
