// Hostile markdown and HTML from a specialist (inserted with the service role, as Chatwoot or an agent
// could send it) render inert in the chat: no dialog, no payload flag set, no inline handlers, no
// javascript:/data:/vbscript: links, no script/iframe/object/embed elements, and the text stays
// readable as text.
import { randomUUID } from 'node:crypto';
import { expect, test } from '@playwright/test';
import { storeSession } from './stored-session.ts';

// Tall enough that the virtualized message list renders every hostile message at once.
test.use({ viewport: { width: 800, height: 6000 } });

const DEMO_CHAT = '00000000-0000-4000-b000-000000000002'; // demo with a human specialist (seed.sql)

/** Every payload tries to set window.__pwned (or open a dialog); none may succeed. */
const HOSTILE: string[] = [
  '<script>window.__pwned = "script"; alert(1)</script>',
  '<img src=x onerror="window.__pwned=\'img\';alert(2)">',
  '<svg onload="window.__pwned=\'svg\'"><circle r=5 /></svg>',
  '<iframe src="javascript:parent.__pwned=\'iframe\'"></iframe><iframe srcdoc="<script>parent.__pwned=1</script>"></iframe>',
  '[klikni](javascript:window.__pwned=\'link\') a [data](data:text/html;base64,PHNjcmlwdD5hbGVydCgxKTwvc2NyaXB0Pg==) a [vb](vbscript:msgbox(1))',
  '<javascript:alert(3)> a <a href="javascript:alert(4)">html odkaz</a>',
  '[ref]: javascript:alert(5)\n\n[odkaz s referenciou][ref]',
  '![obrázok](javascript:alert(6)) ![x](x" onerror="alert(7))',
  '<div style="position:fixed;inset:0;background:red" onclick="alert(8)">prekrytie</div>',
  '<style>body{display:none}</style><link rel=stylesheet href="javascript:alert(9)">',
  '`<script>alert(10)</script>` a\n\n```html\n<img src=x onerror=alert(11)>\n```',
  '<details open ontoggle="window.__pwned=\'details\'">x</details><object data="javascript:alert(12)"></object><embed src="javascript:alert(13)">',
  '<a href="jav&#x09;ascript:alert(14)">tab</a> [entity](jav&#x61;script:alert(15)) [spaces]( javascript:alert(16) )',
  '<math><mtext><table><mglyph><style><img src=x onerror=alert(17)></style></mglyph></table></mtext></math>',
  '<form action="javascript:alert(18)"><button>odoslať</button></form><input autofocus onfocus="alert(19)">',
];

async function insertAsSpecialist(baseURL: string, rows: Record<string, unknown>[]): Promise<void> {
  const key = process.env.E2E_SERVICE_KEY ?? '';
  const res = await fetch(`${baseURL}/rest/v1/messages`, {
    method: 'POST',
    headers: { apikey: key, Authorization: `Bearer ${key}`, 'content-type': 'application/json', Prefer: 'return=minimal' },
    body: JSON.stringify(rows),
  });
  expect(res.status, await res.text()).toBe(201);
}

test('hostile markdown, HTML and attachment addresses render inert', async ({ page, baseURL }) => {
  const dialogs: string[] = [];
  page.on('dialog', (d) => {
    dialogs.push(d.message());
    void d.dismiss();
  });
  const stamp = randomUUID().slice(0, 8);
  const now = Date.now();
  const rows: Record<string, unknown>[] = HOSTILE.map((text, i) => ({
    conversation_id: DEMO_CHAT,
    direction: 'specialist',
    source: 'agent',
    type: 'text',
    text: `${stamp}-${i}: ${text}`,
    created_at: new Date(now + i).toISOString(),
    payload: null,
  }));
  // A rich message whose attachments point at script addresses (the file card is a link, the image an <img>).
  rows.push({
    conversation_id: DEMO_CHAT,
    direction: 'specialist',
    source: 'agent',
    type: 'rich',
    text: `${stamp}-rich`,
    created_at: new Date(now + HOSTILE.length).toISOString(),
    payload: {
      attachments: [
        { id: 'a1', file_type: 'document', name: 'zmluva.pdf', data_url: 'javascript:alert(20)' },
        { id: 'a2', file_type: 'image', name: 'foto.png', data_url: 'javascript:alert(21)', thumb_url: 'javascript:alert(22)' },
        { id: 'a3', file_type: 'other', name: 'web.html', data_url: 'data:text/html,<script>alert(23)</script>' },
        { id: 'a4', file_type: 'document', name: 'platna.pdf', data_url: 'https://example.test/platna.pdf' },
        // Looks like a path, but browsers read '/\\host' as '//host' (issue 16 item 14).
        { id: 'a5', file_type: 'document', name: 'mimo.pdf', data_url: '/\\evil.example/x.pdf' },
        { id: 'a6', file_type: 'document', name: 'mimo2.pdf', data_url: '/\t/evil.example/y.pdf' },
      ],
    },
  });
  await insertAsSpecialist(baseURL!, rows);

  await storeSession(page, 'demo@poradna.test');
  await page.goto(`/app/chats/${DEMO_CHAT}`);
  const messages = page.getByTestId('message');
  await expect(messages.filter({ hasText: `${stamp}-rich` })).toBeVisible({ timeout: 20_000 });

  // Readable as text: the script source and the html are shown, not run.
  await expect(messages.filter({ hasText: `${stamp}-0:` })).toContainText('<script>window.__pwned = "script"; alert(1)</script>');
  await expect(messages.filter({ hasText: `${stamp}-1:` })).toContainText('onerror=');
  await expect(messages.filter({ hasText: `${stamp}-10:` })).toContainText('<img src=x onerror=alert(11)>');

  // Interact with what a user would touch: every link and button inside the hostile bubbles.
  const hostile = messages.filter({ hasText: stamp });
  const links = hostile.locator('a');
  for (let i = 0; i < (await links.count()); i++) {
    const href = (await links.nth(i).getAttribute('href')) ?? '';
    if (/^https?:/i.test(href)) continue; // a real web link would open a tab; not a script
    await links.nth(i).click({ modifiers: ['Alt'], timeout: 2_000 }).catch(() => undefined);
  }
  await page.waitForTimeout(500);
  for (let i = 0; i < HOSTILE.length; i++) await expect(messages.filter({ hasText: `${stamp}-${i}:` })).toHaveCount(1);

  const found = await page.evaluate(() => {
    const scroller = document.querySelector('[data-testid="message-scroller"]') ?? document.body;
    const bad: string[] = [];
    for (const el of Array.from(scroller.querySelectorAll('*'))) {
      for (const attr of Array.from(el.attributes)) {
        const name = attr.name.toLowerCase();
        const value = Array.from(attr.value).filter((ch) => ch.charCodeAt(0) > 32).join('').toLowerCase();
        if (name.startsWith('on')) bad.push(`${el.tagName} ${name}`);
        if (['href', 'src', 'action', 'formaction', 'data', 'srcdoc', 'xlink:href'].includes(name) && /^(javascript|vbscript|data):/.test(value))
          bad.push(`${el.tagName} ${name}=${attr.value.slice(0, 40)}`);
        if (name === 'srcdoc') bad.push(`${el.tagName} srcdoc`);
      }
    }
    for (const tag of ['script', 'iframe', 'object', 'embed', 'form', 'input', 'style', 'link', 'details', 'math'])
      if (scroller.querySelector(tag)) bad.push(`<${tag}> element`);
    return { bad, pwned: (window as { __pwned?: unknown }).__pwned ?? null, bodyVisible: getComputedStyle(document.body).display !== 'none' };
  });
  expect(found.bad).toEqual([]);
  expect(found.pwned).toBeNull();
  expect(found.bodyVisible).toBe(true);
  expect(dialogs).toEqual([]);
  // The one safe attachment is still offered; the script-address ones are dropped.
  await expect(messages.filter({ hasText: `${stamp}-rich` }).getByText('platna.pdf')).toBeVisible();
  await expect(messages.filter({ hasText: `${stamp}-rich` }).getByText(/^mimo2?\.pdf$/)).toHaveCount(0);
  const offsite = await page.evaluate(() =>
    Array.from(document.querySelectorAll<HTMLAnchorElement | HTMLImageElement>('a[href], img[src]'))
      .map((el) => ('href' in el ? el.href : el.src))
      .filter((u) => u.includes('evil.example')),
  );
  expect(offsite).toEqual([]);
  // Still the app: the chat works after rendering all of it.
  await expect(page.getByRole('textbox', { name: 'Správa' })).toBeVisible();
});
