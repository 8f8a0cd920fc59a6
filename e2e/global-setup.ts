// Starts one local stack serving the built PWA for all journeys; workers find it through E2E_BASE_URL.
import { startTestStack } from '../tests/helpers/stack.ts';

export default async function globalSetup(): Promise<() => Promise<void>> {
  const stack = await startTestStack();
  process.env.E2E_BASE_URL = stack.url;
  process.env.E2E_ANON_KEY = stack.keys.anonKey;
  process.env.E2E_SERVICE_KEY = stack.keys.serviceRoleKey;
  process.env.E2E_DATABASE_URL = stack.databaseUrl;
  return () => stack.destroy();
}
