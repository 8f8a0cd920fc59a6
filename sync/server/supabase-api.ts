// ServerApi over supabase-js: RPCs through PostgREST, the chat functions through functions.invoke
// (user-area.md section 7). Each call is tried once; the engine owns retries (postgrest-js's own
// retry of GETs is switched off so back-off stays with the outbox and the machine).
import { FunctionsHttpError } from '@supabase/functions-js';
import type { SupabaseClient } from '@supabase/supabase-js';
import { isJsonObject } from '../model/json.ts';
import {
  parseAccount,
  parseConversation,
  parseMessage,
  parsePullPage,
  parseReadCursor,
  parseSpecialist,
  parseStartResult,
  RemoteShapeError,
} from '../receive/parse-remote.ts';
import type { RemoteMessage, RemoteSpecialist } from '../model/remote-types.ts';
import { ServerError, type ServerApi } from './api.ts';
import { serverErrorFromStatus, toServerError } from './classify.ts';
import { meterTransfer } from './metered.ts';

interface PgResult {
  data: unknown;
  error: { message: string; code?: string; details?: string | null } | null;
  status: number;
}

export interface SupabaseApiOptions {
  /** Use the edge functions (start-conversation, ensure-first-conversation, conversation-read) rather than their RPCs. */
  useFunctions?: boolean;
  /** R9.4: each request is aborted after this long (default 15 s); the abort is a transient error. */
  timeoutMs?: number;
}

/** R5.11: the specialist columns sync_pull embeds in a conversation (migration 20261124000100). */
const HEAD_SPECIALIST_COLUMNS = 'id, name, role, avatar_url, seniority, is_ai, bio, skills, chatwoot_inbox_id, is_assistant';

function fromPg(r: PgResult): unknown {
  if (!r.error) return r.data;
  // A function PostgREST does not know yet is a deploy in progress, not a refusal.
  if (r.error.code === 'PGRST202') throw new ServerError('transient', r.error.message, r.status);
  throw serverErrorFromStatus(r.status, r.error.message, r.error.details ?? null);
}

/** A composite-returning RPC answers with an object; a setof one with a list. */
function single(data: unknown): unknown {
  return Array.isArray(data) ? data[0] : data;
}

async function call<T>(run: () => PromiseLike<T>, parse: (v: T) => unknown): Promise<unknown> {
  let result: T;
  try {
    result = await run();
  } catch (err) {
    throw toServerError(err);
  }
  try {
    return parse(result);
  } catch (err) {
    if (err instanceof RemoteShapeError) throw new ServerError('permanent', err.message, null);
    throw err;
  }
}

async function invoke(supabase: SupabaseClient, name: string, body: Record<string, unknown> | undefined, timeoutMs: number): Promise<unknown> {
  let res: { data: unknown; error: unknown };
  try {
    const signal = AbortSignal.timeout(timeoutMs);
    res = await supabase.functions.invoke(name, body === undefined ? { method: 'POST', signal } : { method: 'POST', body, signal });
  } catch (err) {
    throw toServerError(err);
  }
  if (!res.error) return res.data;
  if (res.error instanceof FunctionsHttpError) {
    const response = res.error.context as Response;
    let message = res.error.message;
    try {
      const j: unknown = await response.json();
      if (isJsonObject(j) && typeof j.error === 'string') message = j.error;
    } catch {
      // keep the generic message
    }
    throw serverErrorFromStatus(response.status, message);
  }
  throw toServerError(res.error);
}

function shape<T>(parse: (v: unknown) => T, v: unknown): T {
  try {
    return parse(v);
  } catch (err) {
    if (err instanceof RemoteShapeError) throw new ServerError('permanent', err.message, null);
    throw err;
  }
}

/** R19.8: how many of R5.11's per-conversation head requests are in flight at once. */
export const HEAD_PARALLEL = 5;

export function createSupabaseServerApi(supabase: SupabaseClient, opts: SupabaseApiOptions = {}): ServerApi {
  const useFunctions = opts.useFunctions ?? true;
  const timeoutMs = opts.timeoutMs ?? 15_000;
  // R9.4: a fresh signal per request (AbortSignal.timeout's timer does not keep Node alive).
  const signal = () => AbortSignal.timeout(timeoutMs);
  const fn = (name: string, body: Record<string, unknown> | undefined): Promise<unknown> => invoke(supabase, name, body, timeoutMs);
  return {
    async pull(since, limit, transfer) {
      const query = supabase.rpc('sync_pull', { p_since: since, p_limit: limit });
      if (!transfer) return shape(parsePullPage, await call(() => query.abortSignal(signal()), fromPg));
      // R5.9: the page's reply is metered as it streams. postgrest-js keeps the client's fetch on the
      // builder (PostgrestBuilder's `fetch`, read when the request is sent): wrapped here for this
      // one request, the auth header and the app's global fetch below it unchanged.
      const meter = meterTransfer(transfer);
      const builder = query as unknown as { fetch: typeof fetch };
      builder.fetch = meter.wrap(builder.fetch);
      try {
        return shape(parsePullPage, await call(() => query.abortSignal(meter.signal), fromPg));
      } finally {
        meter.dispose();
      }
    },
    async pullHead(since, limits) {
      // R5.11: the same rows sync_pull gives (to_jsonb of the row, the conversation's specialist
      // embedded with sync_pull's columns), read by PostgREST under the same RLS. Small requests, so
      // each fits the request timeout on a slow link.
      const rows = await call(
        () =>
          supabase
            .from('conversations')
            .select(`*, specialist:specialists(${HEAD_SPECIALIST_COLUMNS})`)
            .gt('change_seq', since)
            .order('last_message_at', { ascending: false, nullsFirst: false })
            .limit(limits.conversations)
            .retry(false)
            .abortSignal(signal()),
        fromPg,
      );
      const conversations = (Array.isArray(rows) ? rows : []).map((r: unknown) => shape(parseConversation, r));
      // R19.8: the conversations' newest pages, HEAD_PARALLEL requests at a time (one after the other,
      // the head's 21 round trips were most of its time, and nothing of the backlog is stored before
      // it). Each request stays as small as before; the rows are kept in the conversations' order.
      const wanted = conversations.slice(0, limits.withMessages);
      const pages: RemoteMessage[][] = [];
      let next = 0;
      let failed = false;
      const worker = async () => {
        while (!failed && next < wanted.length) {
          const i = next++;
          try {
            const page = await call(
              () =>
                supabase
                  .from('messages')
                  .select('*')
                  .eq('conversation_id', wanted[i]!.id)
                  .order('created_at', { ascending: false })
                  .order('id', { ascending: false })
                  .limit(limits.perConversation)
                  .retry(false)
                  .abortSignal(signal()),
              fromPg,
            );
            pages[i] = (Array.isArray(page) ? page : []).map((m: unknown) => shape(parseMessage, m));
          } catch (err) {
            failed = true; // the head is best effort (R5.11): no more of its requests
            throw err;
          }
        }
      };
      await Promise.all(Array.from({ length: Math.min(HEAD_PARALLEL, wanted.length) }, worker));
      const messages = pages.flat();
      return { conversations, messages };
    },
    async sendMessage(input) {
      if (input.viaChatwoot && useFunctions) {
        // The function stores the row first (idempotent per correlation id), then posts it to
        // Chatwoot with source_id = the correlation id; a 5xx (Chatwoot down) is retried like any send.
        // Files (R12.6's payload.attachments) go with it: the function stores them as the caller and
        // posts them to Chatwoot as multipart attachments[] (issue 38).
        const files = input.payload?.['attachments'];
        const res = await fn('admin-chatwoot-send', {
          conversation_id: input.conversationId,
          content: input.text,
          client_correlation_id: input.correlationId,
          ...(Array.isArray(files) && files.length > 0 ? { payload: { attachments: files } } : {}),
        });
        return { row: shape(parseMessage, isJsonObject(res) ? res.messageData : undefined) };
      }
      const data = await call(
        () =>
          supabase.rpc('send_message', {
            p_conversation_id: input.conversationId,
            p_text: input.text,
            p_client_correlation_id: input.correlationId,
            p_payload: input.payload,
          }).abortSignal(signal()),
        fromPg,
      );
      return { row: shape(parseMessage, single(data)) };
    },
    async markRead(conversationId, messageId) {
      const data = useFunctions
        ? await fn('conversation-read', { conversationId, last_read_message_id: messageId }).then((d) => (isJsonObject(d) ? d.cursor : null))
        : await call(() => supabase.rpc('mark_read', { p_conversation_id: conversationId, p_message_id: messageId }).abortSignal(signal()), fromPg);
      const row = single(data);
      return row === null || row === undefined ? null : shape(parseReadCursor, row);
    },
    async setArchived(conversationId, archivedAt) {
      const data = await call(() => supabase.from('conversations').update({ archived_at: archivedAt }).eq('id', conversationId).select().abortSignal(signal()), fromPg);
      const row = single(data);
      // RLS hides what the caller may not change: no row updated is a refusal.
      if (row === undefined || row === null) throw new ServerError('permanent', 'Conversation not found', 404);
      return shape(parseConversation, row);
    },
    async startConversation(input) {
      const data = useFunctions
        ? await fn('start-conversation', { specialist_id: input.specialistId, card_id: input.cardId, welcome_text: input.welcomeText })
        : await call(
            () => supabase.rpc('start_conversation', { p_specialist_id: input.specialistId, p_card_id: input.cardId, p_welcome_text: input.welcomeText }).abortSignal(signal()),
            fromPg,
          );
      return shape(parseStartResult, single(data));
    },
    async ensureFirstConversation() {
      const data = useFunctions ? await fn('ensure-first-conversation', undefined) : await call(() => supabase.rpc('ensure_first_conversation').abortSignal(signal()), fromPg);
      return shape(parseStartResult, single(data));
    },
    async fetchAccountId(userId) {
      const data = await call(() => supabase.from('account_users').select('account_id').eq('user_id', userId).retry(false).abortSignal(signal()).single(), fromPg);
      if (!isJsonObject(data) || typeof data.account_id !== 'string') throw new ServerError('permanent', 'Account ID not found', 404);
      return data.account_id;
    },
    async fetchAccount(accountId) {
      const data = await call(() => supabase.from('accounts').select('id, name, plan, specialists_mode').eq('id', accountId).retry(false).abortSignal(signal()).single(), fromPg);
      return shape(parseAccount, data);
    },
    async fetchActiveSpecialists(accountId) {
      const links = await call(() => supabase.rpc('get_active_specialists', { p_account_id: accountId }).abortSignal(signal()), fromPg);
      const ids = (Array.isArray(links) ? links : [])
        .map((l: unknown) => (isJsonObject(l) && typeof l.specialist_id === 'string' ? l.specialist_id : null))
        .filter((id): id is string => id !== null);
      if (ids.length === 0) return [];
      const rows = await call(() => supabase.from('specialists').select('*').in('id', ids).retry(false).abortSignal(signal()), fromPg);
      return (Array.isArray(rows) ? rows : []).map((r: unknown): RemoteSpecialist => shape(parseSpecialist, r));
    },
  };
}
