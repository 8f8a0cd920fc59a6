// Message markdown to HTML with micromark (+ GFM). Safety rests on micromark's defaults, which this
// module must keep: raw HTML is escaped (allowDangerousHtml false), and link addresses keep only
// relative URLs and http, https, irc, ircs, mailto and xmpp (allowDangerousProtocol false; any other
// address becomes href=""), exactly the protocols of user-area.md. Because raw HTML is escaped,
// every `<a href="` in the output was written by micromark, so adding target/rel to it is safe.
import { micromark } from 'micromark';
import { gfm, gfmHtml } from 'micromark-extension-gfm';

export const LINK_PROTOCOLS = ['http', 'https', 'irc', 'ircs', 'mailto', 'xmpp'] as const;

export function renderMarkdown(text: string): string {
  const html = micromark(text, {
    allowDangerousHtml: false,
    allowDangerousProtocol: false,
    extensions: [gfm()],
    htmlExtensions: [gfmHtml()],
  });
  return html.replaceAll('<a href="', '<a target="_blank" rel="noopener noreferrer" href="');
}
