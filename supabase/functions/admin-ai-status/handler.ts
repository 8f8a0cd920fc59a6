// admin-ai-status {} -> {configured, provider, host, model, reachable, status, latency_ms, error}:
// whether an AI provider is configured for the AI worker (AI_BASE_URL, AI_API_KEY, AI_MODEL, the
// same secrets ai-reply-worker reads) and whether it answers (issue 39: the admin's Chatwoot /
// diagnostics area shows it). Super admins only. Reachability is one GET of the OpenAI-compatible
// `/models` with the key, 5 s at most: any HTTP answer means the provider is reachable; 401/403 mean
// the key is refused (reachable, not usable). The key never leaves the server; the base URL is
// reported by host only. Without a provider the built-in demo responder answers (R13.6).
import { requireSuperAdmin } from '../_shared/caller.ts';
import { handle, HttpError, json } from '../_shared/http.ts';
import type { FunctionHandler } from '../_shared/types.ts';

const handler: FunctionHandler = (req, env) =>
  handle(async () => {
    if (req.method !== 'POST' && req.method !== 'GET') throw new HttpError(405, 'Use POST');
    await requireSuperAdmin(req, env);
    const base = env.AI_BASE_URL?.trim();
    if (!base || !env.AI_API_KEY || !env.AI_MODEL) {
      return json({ configured: false, provider: 'demo', host: null, model: null, reachable: null, status: null, latency_ms: null, error: null });
    }
    let host: string;
    try {
      host = new URL(base).host;
    } catch {
      return json({ configured: true, provider: 'openai-compatible', host: null, model: env.AI_MODEL, reachable: false, status: null, latency_ms: null, error: 'AI_BASE_URL is not a URL' });
    }
    const started = Date.now();
    try {
      const res = await fetch(`${base.replace(/\/+$/, '')}/models`, {
        headers: { Authorization: `Bearer ${env.AI_API_KEY}` },
        signal: AbortSignal.timeout(5000),
      });
      await res.body?.cancel();
      const refused = res.status === 401 || res.status === 403;
      return json({
        configured: true,
        provider: 'openai-compatible',
        host,
        model: env.AI_MODEL,
        reachable: true,
        status: res.status,
        latency_ms: Date.now() - started,
        error: refused ? 'The provider refused the API key' : null,
      });
    } catch (err) {
      return json({ configured: true, provider: 'openai-compatible', host, model: env.AI_MODEL, reachable: false, status: null, latency_ms: null, error: (err as Error).message });
    }
  })(req);

export default handler;
