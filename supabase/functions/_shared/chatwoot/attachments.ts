// A member's files to Chatwoot (issue 38). Chatwoot takes a message's files in the same create call
// as multipart/form-data: the message's fields as form fields and each file as `attachments[]`
// (Chatwoot's Application API, POST /api/v1/accounts/{a}/conversations/{id}/messages; Messages::
// MessageBuilder reads params[:attachments]; https://github.com/orgs/chatwoot/discussions/1809).
// Invariants:
//   * The message row is stored through `send_message` AS THE CALLER, so the attachment check
//     (t20_attachments, migration 20261128100000) decides with the caller's own storage rights: only
//     objects stored in the caller's folder of this conversation pass, and the row's
//     payload.attachments is the server's rebuilt list (size and type from the stored object). A
//     refused list is a 400 and nothing reaches Chatwoot.
//   * The bytes sent to Chatwoot are read from that stored row's paths (service role, after the check),
//     never from anything else the client named.
import type { Db } from '../clients.ts';
import { rpcError } from '../db-errors.ts';
import { HttpError } from '../http.ts';

export interface StoredAttachment {
  path: string;
  name: string | null;
  content_type?: string | null;
}

/** `payload.attachments` of a chat send, or null when there are none (a plain text send). */
export function attachmentsOf(body: Record<string, unknown>): unknown[] | null {
  const payload = body.payload;
  if (payload === undefined || payload === null) return null;
  if (typeof payload !== 'object' || Array.isArray(payload)) throw new HttpError(400, 'payload must be a JSON object');
  const list = (payload as Record<string, unknown>).attachments;
  if (list === undefined) return null;
  if (!Array.isArray(list)) throw new HttpError(400, 'payload.attachments must be an array');
  return list.length > 0 ? list : null;
}

/** The message columns the Chatwoot send path reads. */
export interface MessageRow {
  id: string;
  text: string | null;
  conversation_id: string;
  chatwoot_message_id: number | null;
  client_correlation_id: string;
  created_at: string;
}

export interface StoredRow extends MessageRow {
  payload: { attachments?: StoredAttachment[] } | null;
}

/** Stores the message as the caller (send_message, idempotent per correlation id). */
export async function storeAsCaller(callerDb: Db, conversationId: string, text: string, correlation: string, attachments: unknown[]): Promise<StoredRow> {
  const res = await callerDb.rpc('send_message', {
    p_conversation_id: conversationId,
    p_text: text,
    p_client_correlation_id: correlation,
    p_payload: { attachments },
  });
  if (res.error) throw rpcError(res.error);
  const row: unknown = res.data;
  return row as StoredRow;
}

/** The multipart body of Chatwoot's message create: the fields, then every stored file as attachments[]. */
export async function attachmentForm(service: Db, fields: Record<string, string>, attachments: readonly StoredAttachment[]): Promise<FormData> {
  const form = new FormData();
  for (const [k, v] of Object.entries(fields)) form.append(k, v);
  for (const a of attachments) {
    const { data, error } = await service.storage.from('attachments').download(a.path);
    if (error || !data) throw new HttpError(502, `Príloha ${a.name ?? a.path} sa nedá načítať zo súborov`);
    const name = a.name ?? a.path.split('/').pop() ?? 'subor';
    form.append('attachments[]', new File([data], name, { type: a.content_type ?? data.type ?? 'application/octet-stream' }));
  }
  return form;
}
