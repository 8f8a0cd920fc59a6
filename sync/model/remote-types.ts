// Rows as the server sends them (sync_pull, RPC replies, realtime records): snake_case, as to_jsonb
// renders them. Never stored as-is; merge/*.ts turns them into Local* rows.
import type { JsonObject } from './json.ts';

export interface RemoteSpecialist {
  id: string;
  name: string;
  role: string | null;
  avatar_url: string | null;
  seniority: string | null;
  is_ai: boolean;
  bio?: string | null;
  skills?: string[] | null;
  chatwoot_inbox_id?: number | null;
}

export interface RemoteConversation {
  id: string;
  account_id: string;
  specialist_id: string | null;
  status: string;
  last_message_at: string | null;
  archived_at: string | null;
  chatwoot_conversation_id: string | null;
  /** R14.1: who answers ('ai' | 'waiting' | 'human'); 'ai' from a server older than issue 39. */
  owner_state?: string;
  owner_requested_at?: string | null;
  owner_agent_name?: string | null;
  created_at: string;
  updated_at: string | null;
  change_seq: number;
  /** Present in sync_pull rows, absent in realtime records. */
  specialist?: RemoteSpecialist | null;
}

export interface RemoteMessage {
  id: string;
  conversation_id: string;
  account_id: string | null;
  text: string | null;
  type: string;
  direction: string;
  source: string | null;
  chatwoot_message_id: string | null;
  created_at: string;
  read_at: string | null;
  payload: JsonObject | null;
  client_correlation_id: string | null;
  sender_user_id: string | null;
  change_seq: number;
}

export interface RemoteReadCursor {
  user_id: string;
  conversation_id: string;
  account_id: string | null;
  last_read_message_id: string | null;
  last_read_at: string | null;
  updated_at: string | null;
  change_seq: number;
}

export type RemoteTable = 'conversations' | 'messages' | 'read_cursors';

export interface RemoteDeleted {
  table: string;
  id: string;
}

export interface RemotePullPage {
  conversations: RemoteConversation[];
  messages: RemoteMessage[];
  read_cursors: RemoteReadCursor[];
  deleted: RemoteDeleted[];
  cursor: number;
  has_more: boolean;
  account_change_seq: number;
  /** R9.9: the account the page answers for; absent from servers before migration 20261124000100. */
  account_id?: string | null;
  /** R9.7: the identity of the database the change numbers belong to (same provenance). */
  feed_epoch?: string | null;
  /** R9.11: the server's clock when it built the page, normalized (same provenance). */
  server_time?: string | null;
}

export interface RemoteAccount {
  id: string;
  name: string;
  plan: string | null;
  specialists_mode: string | null;
}

export interface RemoteStartResult {
  conversation_id: string;
  created: boolean;
}
