// R12: the rows of the attachment outbox (db/schema.ts v7). One job per message, one upload per
// object (the file and its optional thumbnail), one blob per upload. Keys: a blob and its upload share
// `id` = the attachment id, or `<attachment id>#thumb` for the thumbnail.
/** 'preparing': the row holds the picked original while the engine prepares it (R12.13). */
export type UploadState = 'preparing' | 'waiting-network' | 'uploading' | 'uploaded' | 'failed';

export interface AttachmentUploadRow {
  id: string;
  attachmentId: string;
  messageKey: string;
  role: 'file' | 'thumb';
  /** The name the user sees. */
  name: string;
  /** The object's last path part (limits.ts storageFileName). */
  fileName: string;
  contentType: string;
  /** Set when the upload starts (the account is known then): {account}/{conversation}/{attachment}/{file}. */
  path: string | null;
  total: number;
  /** Bytes the server has stored, updated at each completed chunk (R12.4). */
  sent: number;
  /** The TUS upload URL once created: a restarted engine resumes there (R12.5). */
  uploadUrl: string | null;
  state: UploadState;
  /** Slovak, when `failed`. */
  error: string | null;
  width: number | null;
  height: number | null;
  /**
   * R12.13: the blob is the photo as picked (EXIF, GPS and all): never uploaded; replaced by the
   * prepared bytes (attachments/prepare.ts), which drops this flag. Absent on every other row.
   */
  original?: boolean;
}

/** 'removing': a cancelled message's tombstone while its stored objects are removed (R12.9). */
export type JobState = 'uploading' | 'sending' | 'sent' | 'failed' | 'removing';

export interface AttachmentJobRow {
  messageKey: string;
  conversationId: string;
  correlationId: string;
  text: string;
  /** The attachment ids in the order the user chose them. */
  attachmentIds: string[];
  state: JobState;
  error: string | null;
  createdAt: number;
  /** R12.9, state 'removing': the object paths the server may hold, and unfinished TUS upload URLs. */
  removePaths?: string[];
  removeUploadUrls?: string[];
}

export interface AttachmentBlobRow {
  id: string;
  messageKey: string;
  blob: Blob;
}

/** The upload of an attachment's thumbnail has this id. */
export function thumbId(attachmentId: string): string {
  return `${attachmentId}#thumb`;
}

/**
 * R12.14: the blob of a photo's local preview (the EXIF thumbnail the camera wrote) has this id. It
 * has no upload row, so nothing ever uploads it; preparation deletes it with the original.
 */
export function previewId(attachmentId: string): string {
  return `${attachmentId}#preview`;
}
