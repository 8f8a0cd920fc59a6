// R12.1: what may be attached, the same limits as the bucket `attachments`
// (supabase/migrations/20261128000400_storage_attachments.sql; the server refuses the rest too), and
// the Slovak texts the engine gives for attachments.
export const MAX_ATTACHMENT_BYTES = 25 * 1024 * 1024;
/** R12.1: the server's own limit (private.max_attachments(), migration 20261128100000). */
export const MAX_ATTACHMENTS = 10;
/** R12.4: TUS chunks, as hosted Supabase requires (every chunk but the last exactly 6 MB). */
export const TUS_CHUNK_BYTES = 6 * 1024 * 1024;
/** R12.2: what is kept free beyond the blobs themselves before they are stored. */
export const QUOTA_MARGIN_BYTES = 5 * 1024 * 1024;

export const ALLOWED_TYPES: ReadonlySet<string> = new Set([
  'image/jpeg', 'image/png', 'image/gif', 'image/webp', 'image/heic', 'image/heif', 'image/avif',
  'application/pdf',
  'application/msword',
  'application/vnd.openxmlformats-officedocument.wordprocessingml.document',
  'application/vnd.ms-excel',
  'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet',
  'application/vnd.ms-powerpoint',
  'application/vnd.openxmlformats-officedocument.presentationml.presentation',
  'application/vnd.oasis.opendocument.text',
  'application/vnd.oasis.opendocument.spreadsheet',
  'application/vnd.oasis.opendocument.presentation',
  'text/plain', 'text/csv', 'text/markdown',
  'application/zip', 'application/x-zip-compressed',
]);

export const TEXT_ATTACH_QUOTA = 'V zariadení nie je dosť miesta na uloženie prílohy. Uvoľnite miesto a skúste to znova.';
export const TEXT_ATTACH_TOO_LARGE = 'Súbor je väčší ako 25 MB, nedá sa poslať.';
export const TEXT_ATTACH_TYPE = 'Tento typ súboru sa nedá poslať (povolené sú obrázky, PDF, dokumenty Office, text a zip).';
export const TEXT_ATTACH_EMPTY = 'Súbor je prázdny.';
export const TEXT_ATTACH_TOO_MANY = `Naraz sa dá poslať najviac ${MAX_ATTACHMENTS} príloh.`;
export const TEXT_ATTACH_COMPLETED = 'Konverzácia je ukončená, príloha sa neodoslala.';
export const TEXT_ATTACH_UPLOAD_REFUSED = 'Server prílohu odmietol.';
export const TEXT_ATTACH_SEND_REFUSED = 'Správu s prílohou sa nepodarilo odoslať.';
/** R12.13: the picked photo could not be prepared (decoded, downscaled, stripped of EXIF) here. */
export const TEXT_ATTACH_PREPARE_FAILED = 'Fotku sa v tomto zariadení nepodarilo pripraviť na odoslanie. Zostáva uložená v zariadení, nič sa neodoslalo: skúste to znova alebo odoslanie zrušte.';

/** R12.2: the device's storage estimate (navigator.storage.estimate's shape). */
export type StorageEstimate = () => Promise<{ quota?: number; usage?: number }>;

export type RefusalReason = 'quota' | 'too-large' | 'type' | 'empty' | 'too-many' | 'completed';

/** R12.1/R12.2: thrown before anything is stored; `message` is Slovak, ready to show. */
export class AttachmentRefusedError extends Error {
  readonly reason: RefusalReason;
  /** The file the refusal is about (its name), when it is about one. */
  readonly fileName: string | null;
  constructor(reason: RefusalReason, message: string, fileName: string | null = null) {
    super(message);
    this.name = 'AttachmentRefusedError';
    this.reason = reason;
    this.fileName = fileName;
  }
}

/** The MIME type without parameters, lower case. */
export function baseType(type: string): string {
  return (type.split(';')[0] ?? '').trim().toLowerCase();
}

/**
 * The object name's last part: ASCII letters, digits, '.', '-' and '_' (diacritics dropped, the rest
 * '_'), at most 100 characters keeping the extension. Storage keys accept more, but a plain name is
 * the same on every platform and in every URL.
 */
export function storageFileName(name: string): string {
  const plain = name.normalize('NFD').replace(/[\u0300-\u036f]/g, '').replace(/[^A-Za-z0-9._-]+/g, '_').replace(/^[._]+/, '');
  if (plain === '' || plain === '_') return 'subor';
  if (plain.length <= 100) return plain;
  const dot = plain.lastIndexOf('.');
  const ext = dot > 0 && plain.length - dot <= 10 ? plain.slice(dot) : '';
  return plain.slice(0, 100 - ext.length) + ext;
}

/** What the UI resolves with attachmentBlob (queries.ts): never sent to the server. */
export const LOCAL_REF = 'local-attachment:';
export function localRef(attachmentId: string, thumb = false): string {
  return `${LOCAL_REF}${attachmentId}${thumb ? '#thumb' : ''}`;
}
/** R12.14: the local-only preview of a photo being prepared (its EXIF thumbnail); never uploaded. */
export function localPreviewRef(attachmentId: string): string {
  return `${LOCAL_REF}${attachmentId}#preview`;
}
