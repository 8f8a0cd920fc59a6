// GET /settings (what the client may offer) and GET /health, in GoTrue's shapes.
import type { Hono } from 'hono';

export function metaRoutes(app: Hono): void {
  app.get('/settings', (c) =>
    c.json({
      external: { email: true, phone: false, anonymous_users: false },
      disable_signup: false,
      mailer_autoconfirm: true,
      phone_autoconfirm: false,
      sms_provider: '',
      saml_enabled: false,
    }),
  );
  app.get('/health', (c) =>
    c.json({ version: 'poradna-local', name: 'GoTrue', description: 'GoTrue-compatible auth service of the Poradňa local stack' }),
  );
}
