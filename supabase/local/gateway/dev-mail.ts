// /_dev/mail: the mails the stack would have sent, for developers and e2e tests (never in production).
import { Hono } from 'hono';
import type { Mailer } from '../mailbox.ts';

const esc = (s: string) =>
  s.replace(/[&<>"']/g, (ch) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' })[ch]!);

export function devMailApp(mailer: Mailer): Hono {
  const app = new Hono();
  app.get('/mail.json', (c) =>
    c.json(mailer.list().map(({ to, subject, text, links, sent_at }) => ({ to, subject, text, links, sent_at }))),
  );
  app.get('/mail', (c) => {
    const items = mailer
      .list()
      .map(
        (m) => `<article><h2>${esc(m.subject)}</h2><p>Pre: ${esc(m.to)} · ${esc(m.sent_at)}</p>
<pre>${esc(m.text)}</pre>${m.links.map((l) => `<p><a href="${esc(l)}">${esc(l)}</a></p>`).join('')}</article>`,
      )
      .join('<hr>');
    return c.html(`<!doctype html><html lang="sk"><head><meta charset="utf-8"><title>Poradňa – odoslané e-maily</title>
<meta name="viewport" content="width=device-width,initial-scale=1"><style>body{font-family:system-ui;max-width:720px;margin:2rem auto;padding:0 1rem}pre{white-space:pre-wrap}</style></head>
<body><h1>Odoslané e-maily</h1>${items || '<p>Zatiaľ žiadne e-maily.</p>'}</body></html>`);
  });
  return app;
}
