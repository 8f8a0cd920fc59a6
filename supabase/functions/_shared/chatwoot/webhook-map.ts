// Pure mapping of Chatwoot webhook payloads (reference/chatwoot.md) onto our rows. Private notes and
// activity lines never become user-visible messages.

export interface WebhookAttachment {
  id?: number;
  file_type?: string;
  data_url?: string;
  thumb_url?: string;
  file_size?: number;
  width?: number;
  height?: number;
}

export interface ChatwootWebhook {
  event?: string;
  id?: number;
  content?: string | null;
  content_type?: string;
  message_type?: string | number;
  private?: boolean;
  source_id?: string | null;
  created_at?: string;
  account?: { id?: number };
  inbox?: { id?: number };
  conversation?: { id?: number; status?: string; inbox_id?: number; agent_last_seen_at?: number };
  /** conversation_* events carry the conversation's own fields at the top level. */
  agent_last_seen_at?: number;
  attachments?: WebhookAttachment[];
  status?: string;
  webhook_test?: unknown;
}

export type MessageDirection = 'user' | 'specialist';

export interface MappedMessage {
  chatwoot_message_id: number;
  chatwoot_conversation_id: number;
  direction: MessageDirection;
  text: string | null;
  type: 'text' | 'rich';
  payload: Record<string, unknown> | null;
  /** Our client correlation id, when Chatwoot echoes one of ours back (source_id). */
  correlation_id: string | null;
}

const UUID_RE = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

function messageType(t: string | number | undefined): 'incoming' | 'outgoing' | 'activity' | 'template' | 'unknown' {
  if (t === 0 || t === 'incoming') return 'incoming';
  if (t === 1 || t === 'outgoing') return 'outgoing';
  if (t === 2 || t === 'activity') return 'activity';
  if (t === 3 || t === 'template') return 'template';
  return 'unknown';
}

function fileType(t: string | undefined): 'image' | 'document' | 'other' {
  if (t === 'image') return 'image';
  if (t === 'file' || t === 'document') return 'document';
  return 'other';
}

/** A user-visible message, or null for what users must never see (private notes, activity). */
export function mapMessage(w: ChatwootWebhook): MappedMessage | null {
  if (w.private) return null;
  const kind = messageType(w.message_type);
  if (kind === 'activity' || kind === 'unknown') return null;
  if (typeof w.id !== 'number' || typeof w.conversation?.id !== 'number') return null;
  const attachments = (w.attachments ?? []).map((a) => ({
    id: a.id ?? null,
    file_type: fileType(a.file_type),
    data_url: a.data_url ?? null,
    thumb_url: a.thumb_url ?? null,
    file_size: a.file_size ?? null,
    width: a.width ?? null,
    height: a.height ?? null,
  }));
  const source = typeof w.source_id === 'string' && UUID_RE.test(w.source_id) ? w.source_id.toLowerCase() : null;
  return {
    chatwoot_message_id: w.id,
    chatwoot_conversation_id: w.conversation.id,
    direction: kind === 'incoming' ? 'user' : 'specialist',
    text: w.content ?? null,
    type: attachments.length ? 'rich' : 'text',
    payload: attachments.length ? { kind: 'rich_content', attachments } : null,
    correlation_id: source,
  };
}

/** Chatwoot's conversation status onto ours: open and pending are active; resolved/snoozed completed. */
export function mapStatus(status: string | undefined): 'active' | 'completed' | null {
  if (status === 'open' || status === 'pending') return 'active';
  if (status === 'resolved' || status === 'snoozed') return 'completed';
  return null;
}

/** When Chatwoot's agent last looked at the conversation (issue 20, R10.11), or null. Chatwoot sends
 *  agent_last_seen_at as Unix seconds (0 = never) in every conversation payload
 *  (Conversations::EventDataPresenter#push_timestamps, chatwoot/chatwoot
 *  app/presenters/conversations/event_data_presenter.rb): nested in message events, at the top level
 *  in conversation_* events. */
export function agentLastSeen(w: ChatwootWebhook, event: string): Date | null {
  const raw = event.startsWith('conversation_') ? (w.agent_last_seen_at ?? w.conversation?.agent_last_seen_at) : w.conversation?.agent_last_seen_at;
  if (typeof raw !== 'number' || !Number.isFinite(raw) || raw <= 0) return null;
  return new Date(raw * 1000);
}
