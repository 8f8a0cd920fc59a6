// What a stored file may be, and how it is served back. Two guards, both server side:
// 1. Upload: the declared type must be in the bucket's allowed_mime_types (hosted: supabase/storage
//    src/storage/uploader.ts validateMimeType, wildcards like image/* included), and — beyond hosted,
//    which trusts the declared type — the first bytes must be that kind of file (magic numbers), so
//    an HTML page or an SVG named photo.png is refused, and text must not be markup a browser would
//    sniff as HTML (WHATWG MIME Sniffing §7.1 patterns).
// 2. Download: never active content. Every answer carries nosniff and `default-src 'none'; sandbox`,
//    and anything but a raster image is `Content-Disposition: attachment`, so even a file that got in
//    some other way (service_role) cannot run script on this origin when opened.
import { errors } from './errors.ts';

const RASTER = new Set(['image/jpeg', 'image/png', 'image/gif', 'image/webp', 'image/avif', 'image/heic', 'image/heif']);
export const STORAGE_CSP = "default-src 'none'; sandbox";
/** Bytes read to decide what a file is. */
export const SNIFF_BYTES = 512;

function startsWith(b: Uint8Array, sig: number[], at = 0): boolean {
  return sig.every((v, i) => b[at + i] === v);
}
const ascii = (s: string) => [...s].map((c) => c.charCodeAt(0));

function isoBrand(b: Uint8Array): string | undefined {
  return startsWith(b, ascii('ftyp'), 4) ? String.fromCharCode(...b.slice(8, 12)) : undefined;
}

const HTML_START = /^(?:<!doctype html|<html|<head|<script|<iframe|<h1|<div|<font|<table|<a[\s>]|<style|<title|<b[\s>]|<body|<br|<p[\s>]|<!--|<\?xml|<svg)/i;

/** Does `head` (the file's first bytes) look like `mime`? Types without a rule pass. */
export function contentMatches(mime: string, head: Uint8Array): boolean {
  switch (mime) {
    case 'image/jpeg':
      return startsWith(head, [0xff, 0xd8, 0xff]);
    case 'image/png':
      return startsWith(head, [0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]);
    case 'image/gif':
      return startsWith(head, ascii('GIF87a')) || startsWith(head, ascii('GIF89a'));
    case 'image/webp':
      return startsWith(head, ascii('RIFF')) && startsWith(head, ascii('WEBP'), 8);
    case 'image/avif':
      return ['avif', 'avis'].includes(isoBrand(head) ?? '');
    case 'image/heic':
    case 'image/heif':
      return ['heic', 'heix', 'hevc', 'heim', 'heis', 'mif1', 'msf1'].includes(isoBrand(head) ?? '');
    case 'application/pdf':
      return startsWith(head, ascii('%PDF-'));
    case 'application/zip':
    case 'application/x-zip-compressed':
    case 'application/vnd.openxmlformats-officedocument.wordprocessingml.document':
    case 'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet':
    case 'application/vnd.openxmlformats-officedocument.presentationml.presentation':
    case 'application/vnd.oasis.opendocument.text':
    case 'application/vnd.oasis.opendocument.spreadsheet':
    case 'application/vnd.oasis.opendocument.presentation':
      return startsWith(head, [0x50, 0x4b, 0x03, 0x04]) || startsWith(head, [0x50, 0x4b, 0x05, 0x06]);
    case 'application/msword':
    case 'application/vnd.ms-excel':
    case 'application/vnd.ms-powerpoint':
      return startsWith(head, [0xd0, 0xcf, 0x11, 0xe0, 0xa1, 0xb1, 0x1a, 0xe1]);
    default:
      if (mime.startsWith('text/')) {
        if (head.includes(0)) return false;
        const text = new TextDecoder().decode(head).replace(/^\uFEFF/, '').trimStart();
        return !HTML_START.test(text);
      }
      return true;
  }
}

/** The media type without parameters, lower case ("text/plain; charset=utf-8" → "text/plain"). */
export function baseMime(contentType: string | undefined | null): string {
  return (contentType ?? '').split(';')[0]!.trim().toLowerCase();
}

/** Refuses a type the bucket does not allow (415), as hosted does; null allows all. */
export function checkAllowed(mime: string, allowed: string[] | null): void {
  if (!allowed || allowed.length === 0) return;
  const ok = allowed.some((a) => {
    const rule = a.toLowerCase();
    return rule.endsWith('/*') ? mime.startsWith(rule.slice(0, -1)) : rule === mime;
  });
  if (!ok || !/^[a-z0-9!#$&^_.+-]+\/[a-z0-9!#$&^_.+-]+$/.test(mime)) throw errors.invalidMime(mime || 'none');
}

export function checkContent(mime: string, head: Uint8Array): void {
  if (!contentMatches(mime, head)) throw errors.contentMismatch(mime);
}

/** Headers of every object download (and HEAD). */
export function downloadHeaders(meta: ObjectMeta, objectName: string): Record<string, string> {
  const mime = baseMime(meta.mimetype);
  const file = objectName.split('/').pop() ?? 'file';
  const h: Record<string, string> = {
    'content-type': mime || 'application/octet-stream',
    'content-length': String(meta.size),
    'cache-control': meta.cacheControl ?? 'no-cache',
    etag: meta.eTag,
    'last-modified': meta.lastModified,
    'x-content-type-options': 'nosniff',
    'content-security-policy': STORAGE_CSP,
  };
  if (!RASTER.has(mime)) {
    h['content-disposition'] = `attachment; filename*=UTF-8''${encodeURIComponent(file)}`;
  }
  return h;
}

/** storage.objects.metadata as hosted writes it (src/storage/backend/adapter.ts ObjectMetadata). */
export interface ObjectMeta {
  size: number;
  mimetype: string;
  cacheControl: string;
  eTag: string;
  lastModified: string;
  contentLength: number;
  httpStatusCode: number;
}
