// Any OpenAI-compatible chat-completions endpoint (AI_BASE_URL, AI_API_KEY, AI_MODEL).
import { chatMessages } from './prompt.ts';
import { ProviderError, type ReplyProvider, type ReplyRequest } from './types.ts';

interface CompletionResponse {
  choices?: { message?: { content?: string | null } }[];
}

export function openAiProvider(cfg: { baseUrl: string; apiKey: string; model: string; fetch?: typeof fetch }): ReplyProvider {
  const doFetch = cfg.fetch ?? fetch;
  const url = `${cfg.baseUrl.replace(/\/+$/, '')}/chat/completions`;
  return {
    name: 'openai-compatible',
    async reply(req: ReplyRequest, signal: AbortSignal): Promise<string> {
      let res: Response;
      try {
        res = await doFetch(url, {
          method: 'POST',
          signal,
          headers: { 'Content-Type': 'application/json', Authorization: `Bearer ${cfg.apiKey}` },
          body: JSON.stringify({ model: cfg.model, messages: chatMessages(req), temperature: 0.6, max_tokens: 700 }),
        });
      } catch (err) {
        throw new ProviderError(`AI provider unreachable: ${(err as Error).message}`, true);
      }
      if (!res.ok) {
        const detail = (await res.text().catch(() => '')).slice(0, 200);
        throw new ProviderError(`AI provider answered ${res.status}: ${detail}`, res.status === 429 || res.status >= 500);
      }
      const body = (await res.json().catch(() => ({}))) as CompletionResponse;
      const text = body.choices?.[0]?.message?.content?.trim();
      if (!text) throw new ProviderError('AI provider returned no text', true);
      return text;
    },
  };
}
