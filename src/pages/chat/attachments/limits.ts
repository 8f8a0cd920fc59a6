// What the composer accepts as an attachment (issue 38), checked before anything is prepared or
// stored so a refusal is said at once, in Slovak, and nothing else the member picked or typed is lost.
// The list and the size are the bucket's (supabase/migrations/20261128000400_storage_attachments.sql:
// file_size_limit 25 MB, allowed_mime_types); the server enforces them again and sniffs the content,
// this check only spares the member an upload that would be refused.

// The engine holds the one copy of the list and the limits (sync/attachments/limits.ts, R12.1).
export { ALLOWED_TYPES, MAX_ATTACHMENT_BYTES, MAX_ATTACHMENTS } from '../../../../sync/attachments/limits.ts';
import { ALLOWED_TYPES, MAX_ATTACHMENT_BYTES } from '../../../../sync/attachments/limits.ts';

/** The allowed types that are images (all `image/*` of the list). */
const isAllowedImage = (mediaType: string) => mediaType.startsWith('image/') && ALLOWED_TYPES.has(mediaType);

/**
 * Browsers leave `File.type` empty (or guess oddly) for some files, notably .md, .heic and office
 * files on some systems: the extension then names the type.
 */
const BY_EXTENSION: Record<string, string> = {
  jpg: 'image/jpeg', jpeg: 'image/jpeg', png: 'image/png', gif: 'image/gif', webp: 'image/webp',
  heic: 'image/heic', heif: 'image/heif', avif: 'image/avif', pdf: 'application/pdf',
  doc: 'application/msword', docx: 'application/vnd.openxmlformats-officedocument.wordprocessingml.document',
  xls: 'application/vnd.ms-excel', xlsx: 'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet',
  ppt: 'application/vnd.ms-powerpoint', pptx: 'application/vnd.openxmlformats-officedocument.presentationml.presentation',
  odt: 'application/vnd.oasis.opendocument.text', ods: 'application/vnd.oasis.opendocument.spreadsheet',
  odp: 'application/vnd.oasis.opendocument.presentation', txt: 'text/plain', csv: 'text/csv', md: 'text/markdown',
  zip: 'application/zip',
};

/** The picker's `accept`: the types and their extensions (some pickers filter by one, some by the other). */
export const ACCEPT = [...ALLOWED_TYPES, ...Object.keys(BY_EXTENSION).map((e) => `.${e}`)].join(',');

/**
 * The file's media type: the browser's, or from the extension when the browser gave none (or only
 * 'application/octet-stream'). A declared type is never overridden: an HTML page named .pdf stays
 * text/html and is refused (the server sniffs the content as well).
 */
export function mediaTypeOf(file: { name: string; type: string }): string {
  const declared = file.type.split(';')[0]!.trim().toLowerCase();
  if (declared !== '' && declared !== 'application/octet-stream') return declared;
  const ext = /\.([a-z0-9]+)$/i.exec(file.name)?.[1]?.toLowerCase();
  return (ext && BY_EXTENSION[ext]) || declared;
}

export type Refusal = 'too-large' | 'type' | 'empty';

/** Why a file cannot be attached, or null when it can. */
export function refusalOf(file: { name: string; type: string; size: number }): Refusal | null {
  if (file.size === 0) return 'empty';
  if (!ALLOWED_TYPES.has(mediaTypeOf(file))) return 'type';
  if (file.size > MAX_ATTACHMENT_BYTES) return 'too-large';
  return null;
}

/** Images a browser can decode and we re-encode (downscale, EXIF stripped); GIF stays as picked (animation). */
export function isReencodedImage(mediaType: string): boolean {
  return isAllowedImage(mediaType) && mediaType !== 'image/gif';
}

export function isImage(mediaType: string): boolean {
  return isAllowedImage(mediaType);
}
