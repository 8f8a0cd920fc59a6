// Supabase's API gateway (Kong) admits a request to /rest/v1 and /auth/v1 only with a known API key
// in the `apikey` header or query parameter, and answers 401 in Kong's shape otherwise.
import type { Context, Next } from 'hono';


export function apiKeyGuard(keys: { anonKey: string; serviceRoleKey: string }) {
  return async (c: Context, next: Next): Promise<Response | void> => {
    const key = c.req.header('apikey') ?? c.req.query('apikey');
    if (!key) return c.json({ message: 'No API key found in request' }, 401);
    if (key !== keys.anonKey && key !== keys.serviceRoleKey) return c.json({ message: 'Invalid API key' }, 401);
    await next();
  };
}
