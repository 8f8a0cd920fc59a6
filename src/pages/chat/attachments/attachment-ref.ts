// What an attachment's data_url / thumb_url may name (issue 38), besides a web address
// (attachment-url.ts): the engine writes an own attachment as `local-attachment:<id>` (the full
// blob), `local-attachment:<id>#thumb` or `…#preview` (R12.14) while the device holds it, and the server stores
// `storage:<bucket>/<object path>` (a private object, opened through a signed URL made with the
// viewer's own rights: /work/notes/attach-api.md). Neither is ever handed to the browser as it is:
// a local one resolves only to a blob in the viewer's own IndexedDB, a storage one only to what the
// viewer's RLS lets them sign. Pure (unit group).

export type AttachmentRef =
  /** `preview`: a photo's local-only EXIF thumbnail while it is prepared (`…#preview`, R12.14). */
  | { kind: 'local'; id: string; thumb: boolean; preview?: true }
  | { kind: 'storage'; bucket: string; path: string };

const LOCAL = /^local-attachment:([A-Za-z0-9_-]{1,100})(#thumb|#preview)?$/;
const STORAGE = /^storage:([a-z0-9_-]{1,63})\/(.{1,1024})$/s;

export function parseAttachmentRef(raw: unknown): AttachmentRef | null {
  if (typeof raw !== 'string') return null;
  const local = LOCAL.exec(raw);
  if (local) return local[2] === '#preview' ? { kind: 'local', id: local[1]!, thumb: false, preview: true } : { kind: 'local', id: local[1]!, thumb: local[2] !== undefined };
  const storage = STORAGE.exec(raw);
  if (!storage) return null;
  const path = storage[2]!;
  // A storage object name: relative, no empty, '.' or '..' part, no control characters.
  const parts = path.split('/');
  if (parts.some((p) => p === '' || p === '.' || p === '..') || [...path].some((c) => c.charCodeAt(0) < 0x20 || c === '\u007f' || c === '\\')) return null;
  return { kind: 'storage', bucket: storage[1]!, path };
}
