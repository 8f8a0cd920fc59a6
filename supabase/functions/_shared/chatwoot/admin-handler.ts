// Shared shape of the admin-chatwoot-* functions: POST only, super admin checked on the server, body
// validated (400), Chatwoot configured (503), Chatwoot's own failures passed on as 502 with its message.
// Every reply is JSON {success, ...} so the admin page can show outcomes uniformly.
import { requireSuperAdmin, type Caller } from '../caller.ts';
import { serviceClient, type Db } from '../clients.ts';
import { handle, HttpError, json, readJsonObject } from '../http.ts';
import type { FunctionEnv, FunctionHandler } from '../types.ts';
import { ChatwootError } from './api.ts';
import { loadChatwootSettings, type ChatwootSettings } from './settings.ts';

export interface AdminChatwootContext {
  caller: Caller;
  service: Db;
  settings: () => Promise<ChatwootSettings>;
  body: Record<string, unknown>;
  env: FunctionEnv;
}

export function adminChatwootFunction(
  run: (ctx: AdminChatwootContext) => Promise<Record<string, unknown>>,
  authorize: (req: Request, env: FunctionEnv, body: Record<string, unknown>) => Promise<Caller> = (req, env) =>
    requireSuperAdmin(req, env),
): FunctionHandler {
  return (req, env) =>
    handle(async () => {
      if (req.method === 'HEAD' || req.method === 'GET') return json({ success: true, deployed: true });
      if (req.method !== 'POST') throw new HttpError(405, 'Use POST');
      const body = await readJsonObject(req);
      const caller = await authorize(req, env, body);
      const service = serviceClient(env);
      try {
        const result = await run({ caller, service, settings: () => loadChatwootSettings(service, env), body, env });
        return json({ success: true, ...result });
      } catch (err) {
        if (err instanceof ChatwootError) return json({ success: false, error: err.message }, 502);
        if (err instanceof HttpError) return json({ success: false, error: err.message }, err.status);
        throw err;
      }
    })(req);
}

/** Chatwoot conversation ids are the per-account display ids: positive integers. */
export function chatwootConversationId(body: Record<string, unknown>, key = 'conversation_id'): number {
  const raw = body[key];
  const n = typeof raw === 'string' && /^\d+$/.test(raw.trim()) ? Number(raw) : raw;
  if (typeof n !== 'number' || !Number.isInteger(n) || n <= 0) throw new HttpError(400, `${key} must be a Chatwoot conversation id (a positive integer)`);
  return n;
}
