// Turns untrusted JSON from the server (RPC replies, realtime records) into Remote* rows. Numbers that
// PostgreSQL may render as strings (bigint) are coerced; anything malformed throws RemoteShapeError,
// which the engine treats as a permanent error of that request.
import { isJsonObject } from '../model/json.ts';
import { normalizeTimestamp } from '../model/timestamps.ts';
import type {
  RemoteAccount,
  RemoteConversation,
  RemoteDeleted,
  RemoteMessage,
  RemotePullPage,
  RemoteReadCursor,
  RemoteSpecialist,
  RemoteStartResult,
} from '../model/remote-types.ts';

export class RemoteShapeError extends Error {}

type Obj = Record<string, unknown>;

function obj(v: unknown, what: string): Obj {
  if (typeof v !== 'object' || v === null || Array.isArray(v)) throw new RemoteShapeError(`${what}: not an object`);
  return v as Obj;
}
function str(o: Obj, k: string): string {
  const v = o[k];
  if (typeof v !== 'string') throw new RemoteShapeError(`${k}: not a string`);
  return v;
}
function optStr(o: Obj, k: string): string | null {
  const v = o[k];
  if (v === null || v === undefined) return null;
  if (typeof v === 'string') return v;
  if (typeof v === 'number') return String(v);
  throw new RemoteShapeError(`${k}: not a string`);
}
function num(o: Obj, k: string): number {
  const v = o[k];
  const n = typeof v === 'string' ? Number(v) : v;
  if (typeof n !== 'number' || !Number.isFinite(n)) throw new RemoteShapeError(`${k}: not a number`);
  return n;
}
function optNum(o: Obj, k: string): number | null {
  const v = o[k];
  return v === null || v === undefined ? null : num(o, k);
}
function arr(o: Obj, k: string): unknown[] {
  const v = o[k];
  if (v === null || v === undefined) return [];
  if (!Array.isArray(v)) throw new RemoteShapeError(`${k}: not a list`);
  return v;
}

export function parseSpecialist(v: unknown): RemoteSpecialist {
  const o = obj(v, 'specialist');
  const skills = o.skills;
  return {
    id: str(o, 'id'),
    name: optStr(o, 'name') ?? '',
    role: optStr(o, 'role'),
    avatar_url: optStr(o, 'avatar_url'),
    seniority: optStr(o, 'seniority'),
    is_ai: o.is_ai !== false,
    bio: optStr(o, 'bio'),
    skills: Array.isArray(skills) ? skills.filter((s): s is string => typeof s === 'string') : null,
    chatwoot_inbox_id: optNum(o, 'chatwoot_inbox_id'),
  };
}

export function parseConversation(v: unknown): RemoteConversation {
  const o = obj(v, 'conversation');
  const row: RemoteConversation = {
    id: str(o, 'id'),
    account_id: str(o, 'account_id'),
    specialist_id: optStr(o, 'specialist_id'),
    status: optStr(o, 'status') ?? 'active',
    last_message_at: optStr(o, 'last_message_at'),
    archived_at: optStr(o, 'archived_at'),
    chatwoot_conversation_id: optStr(o, 'chatwoot_conversation_id'),
    owner_state: optStr(o, 'owner_state') ?? 'ai',
    owner_requested_at: optStr(o, 'owner_requested_at'),
    owner_agent_name: optStr(o, 'owner_agent_name'),
    created_at: str(o, 'created_at'),
    updated_at: optStr(o, 'updated_at'),
    change_seq: num(o, 'change_seq'),
  };
  if (o.specialist !== undefined) row.specialist = o.specialist === null ? null : parseSpecialist(o.specialist);
  return row;
}

export function parseMessage(v: unknown): RemoteMessage {
  const o = obj(v, 'message');
  const payload = o.payload;
  return {
    id: str(o, 'id'),
    conversation_id: str(o, 'conversation_id'),
    account_id: optStr(o, 'account_id'),
    text: optStr(o, 'text'),
    type: optStr(o, 'type') ?? 'text',
    direction: str(o, 'direction'),
    source: optStr(o, 'source'),
    chatwoot_message_id: optStr(o, 'chatwoot_message_id'),
    created_at: str(o, 'created_at'),
    read_at: optStr(o, 'read_at'),
    payload: isJsonObject(payload) ? payload : null,
    client_correlation_id: optStr(o, 'client_correlation_id'),
    sender_user_id: optStr(o, 'sender_user_id'),
    change_seq: num(o, 'change_seq'),
  };
}

export function parseReadCursor(v: unknown): RemoteReadCursor {
  const o = obj(v, 'read cursor');
  return {
    user_id: str(o, 'user_id'),
    conversation_id: str(o, 'conversation_id'),
    account_id: optStr(o, 'account_id'),
    last_read_message_id: optStr(o, 'last_read_message_id'),
    last_read_at: optStr(o, 'last_read_at'),
    updated_at: optStr(o, 'updated_at'),
    change_seq: num(o, 'change_seq'),
  };
}

function parseDeleted(v: unknown): RemoteDeleted {
  const o = obj(v, 'deleted');
  return { table: str(o, 'table'), id: str(o, 'id') };
}

/** R9.11: an unreadable server time is ignored (it only tunes the clock offset), never a shape error. */
function serverTime(o: Obj): string | null {
  return typeof o.server_time === 'string' ? normalizeTimestamp(o.server_time) : null;
}

export function parsePullPage(v: unknown): RemotePullPage {
  const o = obj(v, 'sync_pull');
  return {
    conversations: arr(o, 'conversations').map(parseConversation),
    messages: arr(o, 'messages').map(parseMessage),
    read_cursors: arr(o, 'read_cursors').map(parseReadCursor),
    deleted: arr(o, 'deleted').map(parseDeleted),
    cursor: num(o, 'cursor'),
    has_more: o.has_more === true,
    account_change_seq: optNum(o, 'account_change_seq') ?? num(o, 'cursor'),
    account_id: optStr(o, 'account_id'),
    feed_epoch: optStr(o, 'feed_epoch'),
    server_time: serverTime(o),
  };
}

export function parseAccount(v: unknown): RemoteAccount {
  const o = obj(v, 'account');
  return { id: str(o, 'id'), name: optStr(o, 'name') ?? '', plan: optStr(o, 'plan'), specialists_mode: optStr(o, 'specialists_mode') };
}

export function parseStartResult(v: unknown): RemoteStartResult {
  const o = obj(v, 'start result');
  return { conversation_id: str(o, 'conversation_id'), created: o.created === true };
}
