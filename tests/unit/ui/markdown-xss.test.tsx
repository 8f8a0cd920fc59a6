// @vitest-environment jsdom
// Hostile message text must render inert: no element or attribute that runs script, and links keep
// their address only if relative or http, https, irc, ircs, mailto, xmpp (user-area.md section 2).
import { cleanup, render } from '@testing-library/react';
import { afterEach, describe, expect, it } from 'vitest';
import { Markdown } from '../../../src/components/Markdown.tsx';
import { renderMarkdown } from '../../../src/lib/markdown.ts';

afterEach(cleanup);

const XSS_CORPUS = [
  '[klik](javascript:alert(1))',
  '[klik](JaVaScRiPt:alert(1))',
  '[klik]( javascript:alert(1))',
  '[klik](&#106;avascript:alert(1))',
  '[klik](&#x6A;avascript&#x3A;alert(1))',
  '[klik](java&#x09;script:alert(1))',
  '[klik](&#0000106;avascript:alert(1))',
  '[klik](\\javascript:alert(1))',
  '[klik](data:text/html;base64,PHNjcmlwdD5hbGVydCgxKTwvc2NyaXB0Pg==)',
  '[klik](vbscript:msgbox(1))',
  '[klik](file:///etc/passwd)',
  '<javascript:alert(1)>',
  '[ref][x]\n\n[x]: javascript:alert(1)',
  '<script>alert(1)</script>',
  '<img src=x onerror=alert(1)>',
  '<img src="x" onerror="alert(1)">',
  '<svg onload=alert(1)>',
  '<iframe src="javascript:alert(1)"></iframe>',
  '<a href="javascript:alert(1)">x</a>',
  '<div style="background:url(javascript:alert(1))">x</div>',
  '![obr](javascript:alert(1))',
  '![obr](data:image/svg+xml;base64,PHN2ZyBvbmxvYWQ9YWxlcnQoMSk+)',
  '[[vnoreny](javascript:alert(1))](https://ok.example)',
  '[![obr](x.png)](javascript:alert(1))',
  '[a](https://ok.example "t\\" onmouseover=\\"alert(1)")',
  '`<script>alert(1)</script>`',
  '```html\n<script>alert(1)</script>\n```',
  '<style>body{display:none}</style>',
  '<form action="javascript:alert(1)"><button>x</button></form>',
  '**<b onclick=alert(1)>tučné</b>**',
];

const SAFE_HREF = /^(?:$|https?:|ircs?:|mailto:|xmpp:|\/|\.|#|[^:]*$)/i;

function mount(text: string): HTMLElement {
  const { container } = render(<Markdown text={text} />);
  const root = container.firstElementChild;
  if (!(root instanceof HTMLElement) || !root.classList.contains('markdown')) throw new Error('no markdown root');
  return root;
}

describe('markdown rendering is inert against the XSS corpus', () => {
  it.each(XSS_CORPUS)('%s', (text) => {
    const root = mount(text);
    expect(root.querySelectorAll('script, iframe, svg, style, form, object, embed, button, div').length).toBe(0);
    for (const el of root.querySelectorAll('*')) {
      for (const attr of el.getAttributeNames()) {
        expect(attr.startsWith('on'), `${el.tagName} has ${attr}`).toBe(false);
        expect(attr).not.toBe('style');
      }
    }
    for (const a of root.querySelectorAll('a')) {
      expect(a.getAttribute('href') ?? '').toMatch(SAFE_HREF);
      expect(a.getAttribute('href') ?? '').not.toMatch(/script|data:|file:/i);
    }
    for (const img of root.querySelectorAll('img')) {
      expect(img.getAttribute('src') ?? '').not.toMatch(/^\s*(javascript|data|vbscript):/i);
    }
  });

  it('shows raw HTML as text instead of executing it', () => {
    const root = mount('<img src=x onerror=alert(1)> a <script>alert(1)</script>');
    expect(root.textContent).toContain('<img src=x onerror=alert(1)>');
    expect(root.textContent).toContain('<script>alert(1)</script>');
    expect(root.querySelector('img')).toBeNull();
  });
});

describe('links', () => {
  it.each([
    ['https://example.com/a?b=1', 'https://example.com/a?b=1'],
    ['http://example.com', 'http://example.com'],
    ['irc://irc.example.org/poradna', 'irc://irc.example.org/poradna'],
    ['ircs://irc.example.org/poradna', 'ircs://irc.example.org/poradna'],
    ['mailto:info@poradna.sk', 'mailto:info@poradna.sk'],
    ['xmpp:poradna@example.org', 'xmpp:poradna@example.org'],
    ['/app/specialists', '/app/specialists'],
    ['../relative/path', '../relative/path'],
  ])('keeps %s', (url, expected) => {
    const a = mount(`[odkaz](${url})`).querySelector('a');
    expect(a?.getAttribute('href')).toBe(expected);
  });

  it.each(['javascript:alert(1)', 'data:text/plain,hi', 'vbscript:x', 'ftp://example.com', 'tel:+421900000000'])('empties %s', (url) => {
    const a = mount(`[odkaz](${url})`).querySelector('a');
    expect(a?.getAttribute('href')).toBe('');
  });

  it('opens every link in a new tab with rel noopener', () => {
    const root = mount('[a](https://a.example) a www.b.example a <https://c.example>');
    const links = [...root.querySelectorAll('a')];
    expect(links).toHaveLength(3);
    for (const a of links) {
      expect(a.getAttribute('target')).toBe('_blank');
      expect(a.getAttribute('rel')).toContain('noopener');
    }
  });

  it('does not let text forge the target attribute', () => {
    const html = renderMarkdown('<a href="https://x">x</a> and `<a href="`');
    expect(html).not.toContain('<a href="https://x"');
    expect(html.match(/<a /g)).toBeNull();
  });
});

describe('formatting', () => {
  it('renders headings, lists, code blocks, quotes and GFM tables', () => {
    const root = mount('# Nadpis\n\n- jeden\n- dva\n\n1. prvý\n\n> citát\n\n```\nkód\n```\n\n| a | b |\n|---|---|\n| 1 | 2 |\n\n~~preč~~');
    expect(root.querySelector('h1')?.textContent).toBe('Nadpis');
    expect(root.querySelectorAll('ul li')).toHaveLength(2);
    expect(root.querySelector('ol li')?.textContent).toBe('prvý');
    expect(root.querySelector('blockquote')?.textContent?.trim()).toBe('citát');
    expect(root.querySelector('pre code')?.textContent).toBe('kód\n');
    expect(root.querySelector('table td')?.textContent).toBe('1');
    expect(root.querySelector('del')?.textContent).toBe('preč');
  });

  // Issue 37: a chat shows a single newline (Shift+Enter) as a line break; code blocks keep theirs.
  it('shows a single newline as a line break, in paragraphs, lists and quotes, but not inside code blocks', () => {
    const address = mount('Adresa:\nHlavná 12\n917 01 Trnava');
    expect(address.querySelectorAll('p')).toHaveLength(1);
    expect(address.querySelectorAll('p br')).toHaveLength(2);
    expect(address.querySelector('p')?.textContent).toBe('Adresa:\nHlavná 12\n917 01 Trnava');
    expect(mount('- a\n- b\nc').querySelectorAll('li br')).toHaveLength(1);
    expect(mount('> q\n> r').querySelectorAll('blockquote br')).toHaveLength(1);
    expect(mount('*a*\n**b**').querySelectorAll('br')).toHaveLength(1);
    // Already hard breaks (backslash, two spaces) stay one break each.
    expect(mount('a\\\nb').querySelectorAll('br')).toHaveLength(1);
    expect(mount('a  \nb').querySelectorAll('br')).toHaveLength(1);
    // Between blocks and inside code nothing is added.
    const blocks = mount('a\n\nb\n\n```\nx\ny\n```\n\n- a\n  - b\n\n| a |\n|---|\n| 1 |');
    expect(blocks.querySelectorAll('br')).toHaveLength(0);
    expect(blocks.querySelector('pre code')?.textContent).toBe('x\ny\n');
  });

  it('makes code blocks and tables, which scroll inside the bubble, reachable by keyboard', () => {
    const root = mount('```\nx\n```\n\n| a |\n|---|\n| 1 |');
    expect(root.querySelector('pre')?.getAttribute('tabindex')).toBe('0');
    expect(root.querySelector('table')?.getAttribute('tabindex')).toBe('0');
  });
});
