// Message markdown to HTML with micromark (+ GFM). Safety rests on micromark's defaults, which this
// module must keep: raw HTML is escaped (allowDangerousHtml false), and link addresses keep only
// relative URLs and http, https, irc, ircs, mailto and xmpp (allowDangerousProtocol false; any other
// address becomes href=""), exactly the protocols of user-area.md. Because raw HTML is escaped,
// every `<a href="` in the output was written by micromark, so adding target/rel to it is safe.
//
// Cost: micromark with GFM takes about a millisecond per short message, which a chat scrolled
// through thousands of messages pays for every bubble it mounts (bench row 7). So:
// - plain prose (one line, letters first, no character that any markdown or GFM construct starts
//   with) skips the parser: its HTML is the paragraph micromark would write, byte for byte (the
//   unit tests compare the two on generated texts);
// - every other result is kept in a bounded cache keyed by the text (the output depends on the
//   text alone).
//
// Chat, not documents (issue 37): a single newline the user typed (Shift+Enter) is a line break, as
// in every chat app. CommonMark keeps it as a soft break (a plain "\n" inside the paragraph, which
// HTML shows as a space); after micromark, such a newline between two pieces of phrasing content
// becomes `<br />\n`. Code blocks keep their newlines as they are, and a newline micromark writes
// between blocks (next to a block tag) is left alone. Because raw HTML is escaped, every tag in the
// output is micromark's, so telling block tags apart by name is exact. Wide code blocks and tables
// scroll inside the bubble, so they get tabindex="0" (a keyboard user can scroll them: axe
// scrollable-region-focusable).
import { micromark, type Options } from 'micromark';
import { gfm, gfmHtml } from 'micromark-extension-gfm';

export const LINK_PROTOCOLS = ['http', 'https', 'irc', 'ircs', 'mailto', 'xmpp'] as const;

const OPTIONS: Options = {
  allowDangerousHtml: false,
  allowDangerousProtocol: false,
  extensions: [gfm()],
  htmlExtensions: [gfmHtml()],
};

/**
 * Plain prose: starts with a letter, has no line break, tab, trailing space or character outside
 * letters, marks, digits, spaces and , . ; : ? ! ' " ( ) % / - and holds neither `www.` nor `:/`
 * (GFM autolink literals). None of these characters starts a markdown construct there: list and
 * heading markers need them first on a line, code/emphasis/links/HTML/entities/escapes use
 * characters outside the set, and emails need '@'.
 */
const PLAIN = /^\p{L}[\p{L}\p{M}\p{N} ,.;:?!'"()%/-]*$/u;
const AUTOLINK_HINT = /www\.|:\//i;

export function isPlainProse(text: string): boolean {
  return PLAIN.test(text) && !text.endsWith(' ') && !AUTOLINK_HINT.test(text);
}

/** Tags micromark writes around blocks (and `<br />`, after which a newline is already a break). */
const BLOCK = '(?:p|ul|ol|li|blockquote|pre|h[1-6]|hr|table|thead|tbody|tr|th|td|section|div|br)';
const SOFT_BREAK = new RegExp(`(?<!<\\/?${BLOCK}\\b[^>]*>)\n(?!<\\/?${BLOCK}\\b)`, 'g');
/** A code block, whose newlines are its content (`<` inside it is escaped, so `</pre>` ends it). */
const CODE_BLOCK = /(<pre>[\s\S]*?<\/pre>)/;

/** Soft line breaks outside code blocks become hard ones; scrollable blocks become focusable. */
export function chatBreaks(html: string): string {
  return html
    .split(CODE_BLOCK)
    .map((part, i) => (i % 2 === 1 ? part : part.replace(SOFT_BREAK, '<br />\n')))
    .join('')
    .replaceAll('<pre>', '<pre tabindex="0">')
    .replaceAll('<table>', '<table tabindex="0">');
}

function compile(text: string): string {
  const html = micromark(text, OPTIONS).replaceAll('<a href="', '<a target="_blank" rel="noopener noreferrer" href="');
  return chatBreaks(html);
}

function parse(text: string): string {
  if (isPlainProse(text)) return `<p>${text.replaceAll('"', '&quot;')}</p>`;
  return compile(text);
}

/** Most recently used results, oldest first (a Map keeps insertion order). */
const cache = new Map<string, string>();
export const MARKDOWN_CACHE_SIZE = 1000;

export function renderMarkdown(text: string): string {
  const hit = cache.get(text);
  if (hit !== undefined) {
    cache.delete(text);
    cache.set(text, hit);
    return hit;
  }
  const html = parse(text);
  cache.set(text, html);
  if (cache.size > MARKDOWN_CACHE_SIZE) cache.delete(cache.keys().next().value!);
  return html;
}

/** The parser's own answer, never the fast path or the cache (tests compare against it). */
export function renderMarkdownUncached(text: string): string {
  return compile(text);
}
