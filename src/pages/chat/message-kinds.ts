// How a stored message is shown (user-area.md section 3): system notices, specialist cards
// (type json or payload.kind rich_content with a specialist_id), rich messages (attachments), text.
import type { Json, JsonObject } from '../../../sync/model/json.ts';
import type { LocalMessage } from '../../../sync/model/local-types.ts';
import { safeAttachmentUrl } from './attachment-url.ts';
import { parseAttachmentRef } from './attachments/attachment-ref.ts';

export type MessageKind = 'system' | 'card' | 'rich' | 'text';

export interface Attachment {
  id: string;
  fileType: 'image' | 'document' | 'other';
  name: string | null;
  dataUrl: string;
  thumbUrl: string | null;
  width: number | null;
  height: number | null;
  fileSize: number | null;
}

export interface CardInfo {
  specialistId: string;
  credits: number | null;
  welcomeText: string | null;
}

const str = (v: Json | undefined): string | null => (typeof v === 'string' && v !== '' ? v : null);
const num = (v: Json | undefined): number | null => (typeof v === 'number' && Number.isFinite(v) ? v : null);
const obj = (v: Json | undefined): JsonObject | null => (v !== null && typeof v === 'object' && !Array.isArray(v) ? v : null);

/**
 * An attachment address a link or image may use: absolute http(s) or resolving to our own origin, or
 * (issue 38) an own blob on the device or a stored object, kept as written for useAttachmentUrls to
 * resolve (attachments/attachment-ref.ts).
 */
const webUrl = (v: Json | undefined): string | null => {
  const s = str(v);
  return parseAttachmentRef(s) ? s : safeAttachmentUrl(s);
};

export function isOwn(m: Pick<LocalMessage, 'direction'>): boolean {
  return m.direction === 'user';
}

export function cardInfo(payload: JsonObject | null): CardInfo | null {
  const specialistId = str(payload?.['specialist_id']);
  if (!payload || !specialistId) return null;
  return { specialistId, credits: num(payload['allocated_credits']), welcomeText: str(payload['welcome_text']) };
}

export function attachmentsOf(payload: JsonObject | null): Attachment[] {
  const list = payload?.['attachments'];
  if (!Array.isArray(list)) return [];
  const out: Attachment[] = [];
  list.forEach((raw, i) => {
    const a = obj(raw);
    const dataUrl = webUrl(a?.['data_url']);
    if (!a || !dataUrl) return;
    const t = str(a['file_type']);
    out.push({
      id: str(a['id']) ?? `${i}`,
      fileType: t === 'image' || t === 'document' ? t : 'other',
      name: str(a['name']),
      dataUrl,
      thumbUrl: webUrl(a['thumb_url']),
      width: num(a['width']),
      height: num(a['height']),
      fileSize: num(a['file_size']),
    });
  });
  return out;
}

export function messageKind(m: Pick<LocalMessage, 'direction' | 'type' | 'payload'>): MessageKind {
  if (m.direction === 'system') return 'system';
  const kind = str(m.payload?.['kind']);
  if ((m.type === 'json' || kind === 'rich_content') && cardInfo(m.payload)) return 'card';
  if (attachmentsOf(m.payload).length > 0) return 'rich';
  return 'text';
}

/** Red for a 'status_completed' notice, green for every other one. */
export function systemTone(payload: JsonObject | null): 'red' | 'green' {
  return str(payload?.['system_type']) === 'status_completed' ? 'red' : 'green';
}

/** A file name for a card: the attachment's name, else the last part of its address. */
export function fileName(a: Attachment): string {
  if (a.name) return a.name;
  const tail = a.dataUrl.split(/[?#]/)[0]?.split('/').pop();
  return tail && tail !== '' ? decodeURIComponent(tail) : a.id;
}
