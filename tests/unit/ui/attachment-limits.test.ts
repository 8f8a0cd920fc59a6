// Issue 38: what the composer accepts before anything is prepared or stored, and the sizes images are
// prepared to. The allow-list is the bucket's (the server refuses the rest), read from its migration.
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { ACCEPT, ALLOWED_TYPES, MAX_ATTACHMENT_BYTES, mediaTypeOf, refusalOf } from '../../../src/pages/chat/attachments/limits.ts';
import { fitWithin, MAX_IMAGE_EDGE_PX, outputTypeFor, renamedFor, THUMB_EDGE_PX } from '../../../src/pages/chat/attachments/image-size.ts';

const MB = 1024 * 1024;

describe('attachment limits (issue 38)', () => {
  it('allows exactly the types and size of the attachments bucket', () => {
    const sql = readFileSync('supabase/migrations/20261128000400_storage_attachments.sql', 'utf8');
    const list = /allowed_mime_types\)\s*values\s*\([^]*?array\[([^\]]*)\]/.exec(sql)?.[1] ?? '';
    const bucket = [...list.matchAll(/'([^']+)'/g)].map((m) => m[1]);
    expect(bucket.length).toBeGreaterThan(10);
    expect([...ALLOWED_TYPES].sort()).toEqual([...bucket].sort());
    expect(sql).toContain('25 * 1024 * 1024');
    expect(MAX_ATTACHMENT_BYTES).toBe(25 * MB);
  });

  it('refuses a file over 25 MB, an empty one, HTML and SVG; takes one of exactly 25 MB', () => {
    expect(refusalOf({ name: 'video.zip', type: 'application/zip', size: 25 * MB + 1 })).toBe('too-large');
    expect(refusalOf({ name: 'plan.pdf', type: 'application/pdf', size: 25 * MB })).toBeNull();
    expect(refusalOf({ name: 'prazdny.txt', type: 'text/plain', size: 0 })).toBe('empty');
    expect(refusalOf({ name: 'stranka.html', type: 'text/html', size: 10 })).toBe('type');
    expect(refusalOf({ name: 'logo.svg', type: 'image/svg+xml', size: 10 })).toBe('type');
    expect(refusalOf({ name: 'program.exe', type: '', size: 10 })).toBe('type');
  });

  it('names the type from the extension when the browser leaves it empty, never over a declared one', () => {
    expect(mediaTypeOf({ name: 'Poznámky.MD', type: '' })).toBe('text/markdown');
    expect(mediaTypeOf({ name: 'foto.heic', type: '' })).toBe('image/heic');
    expect(mediaTypeOf({ name: 'x.pdf', type: 'application/pdf; charset=binary' })).toBe('application/pdf');
    // An HTML page named .pdf keeps its declared type, so it is refused (the server sniffs as well).
    expect(mediaTypeOf({ name: 'x.pdf', type: 'text/html' })).toBe('text/html');
    expect(refusalOf({ name: 'x.pdf', type: 'text/html', size: 10 })).toBe('type');
    expect(mediaTypeOf({ name: 'tabulka.xlsx', type: 'application/octet-stream' })).toBe('application/vnd.openxmlformats-officedocument.spreadsheetml.sheet');
  });

  it('the picker accepts the allowed types and their extensions', () => {
    const accept = ACCEPT.split(',');
    for (const t of ALLOWED_TYPES) expect(accept).toContain(t);
    expect(accept).toContain('.docx');
    expect(accept).not.toContain('text/html');
  });
});

describe('image sizes (issue 38)', () => {
  it('downscales the long edge to 2,048 px keeping the aspect, never enlarges', () => {
    expect(fitWithin({ width: 4032, height: 3024 }, MAX_IMAGE_EDGE_PX)).toEqual({ width: 2048, height: 1536 });
    expect(fitWithin({ width: 3000, height: 4000 }, MAX_IMAGE_EDGE_PX)).toEqual({ width: 1536, height: 2048 });
    expect(fitWithin({ width: 800, height: 600 }, MAX_IMAGE_EDGE_PX)).toEqual({ width: 800, height: 600 });
    expect(fitWithin({ width: 10000, height: 1 }, THUMB_EDGE_PX)).toEqual({ width: 320, height: 1 });
  });

  it('photos become JPEG, images that may be transparent WebP; the name follows the type', () => {
    expect(outputTypeFor('image/jpeg')).toBe('image/jpeg');
    expect(outputTypeFor('image/heic')).toBe('image/jpeg');
    expect(outputTypeFor('image/png')).toBe('image/webp');
    expect(renamedFor('IMG_0001.HEIC', 'image/jpeg')).toBe('IMG_0001.jpg');
    expect(renamedFor('logo.png', 'image/webp')).toBe('logo.webp');
    expect(renamedFor('logo.png', 'image/png')).toBe('logo.png');
    expect(renamedFor('.png', 'image/jpeg')).toBe('obrazok.jpg');
  });
});
