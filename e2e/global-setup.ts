// Starts one local stack serving the built PWA for all journeys; workers find it through E2E_BASE_URL.
import { resolve } from 'node:path';
import { readConfig } from '../supabase/local/config.ts';
import { startTestStack } from '../tests/helpers/stack.ts';
import { DEMO_THINK_MS } from '../supabase/functions/_shared/ai/local-responder.ts';

export default async function globalSetup(): Promise<() => Promise<void>> {
  // E2E_WEB_DIR serves another build than ./dist, so parallel work never races on one dist folder.
  const webDir = process.env.E2E_WEB_DIR;
  // push.test (a reserved name that never resolves) is a push service here, so the journeys' fake
  // subscriptions pass push_subscribe's allow-list (issue 36 N2) and a send to them reaches nobody.
  const push = { ...readConfig({}).push, endpointHosts: 'push.test' };
  const stack = await startTestStack({ push, aiDemoThinkMs: DEMO_THINK_MS, ...(webDir ? { webDir: resolve(webDir) } : {}) });
  process.env.E2E_BASE_URL = stack.url;
  process.env.E2E_ANON_KEY = stack.keys.anonKey;
  // The key /env.js hands the app (issue 41): what the admin's configuration card shows.
  process.env.E2E_PUBLISHABLE_KEY = stack.keys.publishableKey;
  process.env.E2E_SERVICE_KEY = stack.keys.serviceRoleKey;
  process.env.E2E_DATABASE_URL = stack.databaseUrl;
  return () => stack.destroy();
}
