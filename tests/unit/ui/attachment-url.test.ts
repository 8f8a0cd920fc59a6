// Issue 16 item 14: an attachment's data_url/thumb_url must not leave our origin unless it is an
// explicit absolute http(s) URL, however it is spelled. Each bypass is a string a browser resolves
// to another host (or a script/data scheme); the filter parses like the browser and refuses them.
import { afterEach, describe, expect, it, vi } from 'vitest';
import { safeAttachmentUrl } from '../../../src/pages/chat/attachment-url.ts';
import { attachmentsOf } from '../../../src/pages/chat/message-kinds.ts';

const ORIGIN = 'https://app.poradna.test';

// Relative-looking spellings that browsers send to evil.test (or to no web page at all).
const BYPASSES = [
  '/\\evil.test/x',
  '/\\\\evil.test/x',
  '\\\\evil.test/x',
  '\\/evil.test/x',
  '//evil.test/x',
  '///evil.test/x',
  '/\t/evil.test/x',
  '/\n/evil.test/x',
  '\t//evil.test/x',
  ' //evil.test/x',
  '/%09/evil.test/x'.replace('%09', '\t'),
  'javascript:alert(1)',
  'JaVaScRiPt:alert(1)',
  'java\tscript:alert(1)',
  '\u0000javascript:alert(1)',
  ' javascript:alert(1)',
  'data:text/html,<script>alert(1)</script>',
  'blob:https://app.poradna.test/1234',
  'vbscript:msgbox(1)',
  'file:///etc/passwd',
  'https://user:pass@app.poradna.test/x',
  '/x@evil.test'.replace('/x', '//x'),
  '',
];

const ALLOWED: Array<[string, string]> = [
  ['/storage/f.pdf', `${ORIGIN}/storage/f.pdf`],
  ['storage/f.pdf', `${ORIGIN}/storage/f.pdf`],
  ['/a/../b.png', `${ORIGIN}/b.png`],
  ['?download=1', `${ORIGIN}/?download=1`],
  ['https://chatwoot.example/rails/active_storage/x.png', 'https://chatwoot.example/rails/active_storage/x.png'],
  ['HTTP://files.example/a b.pdf', 'http://files.example/a%20b.pdf'],
];

describe('safeAttachmentUrl', () => {
  it.each(BYPASSES)('refuses %j', (raw) => {
    expect(safeAttachmentUrl(raw, ORIGIN)).toBeNull();
  });

  it.each(ALLOWED)('keeps %j as %j', (raw, href) => {
    expect(safeAttachmentUrl(raw, ORIGIN)).toBe(href);
  });

  it('a resolved relative URL never has another origin', () => {
    for (const raw of BYPASSES) {
      const href = safeAttachmentUrl(raw, ORIGIN);
      if (href) expect(new URL(href).origin).toBe(ORIGIN);
    }
  });

  it('refuses relative URLs when no origin is known, and non-strings', () => {
    expect(safeAttachmentUrl('/f.pdf', undefined)).toBeNull();
    expect(safeAttachmentUrl(42, ORIGIN)).toBeNull();
    expect(safeAttachmentUrl(null, ORIGIN)).toBeNull();
  });
});

describe('attachmentsOf uses the parsing filter', () => {
  afterEach(() => vi.unstubAllGlobals());

  it('drops the issue\'s "/\\\\host/x" attachment and an off-site thumb, keeps a same-origin one', () => {
    vi.stubGlobal('location', { origin: ORIGIN });
    const list = attachmentsOf({
      attachments: [
        { id: 'evil', file_type: 'document', data_url: '/\\evil.test/x' },
        { id: 'ok', file_type: 'image', data_url: '/f.png', thumb_url: '/\\evil.test/t.png' },
      ],
    });
    expect(list.map((a) => [a.id, a.dataUrl, a.thumbUrl])).toEqual([['ok', `${ORIGIN}/f.png`, null]]);
  });
});
