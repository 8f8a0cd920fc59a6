// Any OpenAI-compatible chat-completions endpoint (AI_BASE_URL, AI_API_KEY, AI_MODEL), asked with
// `stream: true`: the reply arrives as server-sent events of `chat.completion.chunk` objects
// ({choices: [{delta: {content}}]}, then `data: [DONE]`; OpenAI API reference "Chat Completions:
// streaming"). Works with OpenAI, Ollama's /v1, vLLM, LM Studio and others that speak the format.
// A provider that ignores `stream` and answers one JSON completion is read whole.
import { chatMessages } from './prompt.ts';
import { sseData } from './sse.ts';
import { ProviderError, type ReplyProvider, type ReplyRequest } from './types.ts';

interface Completion {
  choices?: { message?: { content?: string | null }; delta?: { content?: string | null }; finish_reason?: string | null }[];
  error?: { message?: string };
}

function parseChunk(data: string): Completion {
  try {
    return JSON.parse(data) as Completion;
  } catch {
    throw new ProviderError(`AI provider sent an unreadable chunk: ${data.slice(0, 100)}`, true);
  }
}

export function openAiProvider(cfg: { baseUrl: string; apiKey: string; model: string; fetch?: typeof fetch }): ReplyProvider {
  const doFetch = cfg.fetch ?? fetch;
  const url = `${cfg.baseUrl.replace(/\/+$/, '')}/chat/completions`;
  return {
    name: 'openai-compatible',
    async *stream(req: ReplyRequest, signal: AbortSignal): AsyncGenerator<string> {
      let res: Response;
      try {
        res = await doFetch(url, {
          method: 'POST',
          signal,
          headers: { 'Content-Type': 'application/json', Authorization: `Bearer ${cfg.apiKey}`, Accept: 'text/event-stream' },
          body: JSON.stringify({ model: cfg.model, messages: chatMessages(req), temperature: 0.6, max_tokens: 700, stream: true }),
        });
      } catch (err) {
        throw new ProviderError(`AI provider unreachable: ${(err as Error).message}`, true);
      }
      if (!res.ok) {
        const detail = (await res.text().catch(() => '')).slice(0, 200);
        throw new ProviderError(`AI provider answered ${res.status}: ${detail}`, res.status === 429 || res.status >= 500);
      }
      if (!(res.headers.get('content-type') ?? '').includes('text/event-stream') || !res.body) {
        const body = (await res.json().catch(() => ({}))) as Completion;
        const text = body.choices?.[0]?.message?.content?.trim();
        if (!text) throw new ProviderError('AI provider returned no text', true);
        yield text;
        return;
      }
      let finished = false;
      try {
        for await (const data of sseData(res.body)) {
          if (data.trim() === '[DONE]') {
            finished = true;
            break;
          }
          const chunk = parseChunk(data);
          if (chunk.error) throw new ProviderError(`AI provider failed mid-answer: ${chunk.error.message ?? 'error'}`, true);
          const choice = chunk.choices?.[0];
          const piece = choice?.delta?.content ?? '';
          if (piece) yield piece;
          if (choice?.finish_reason) finished = true;
        }
      } catch (err) {
        if (err instanceof ProviderError || signal.aborted) throw err;
        throw new ProviderError(`AI provider stream broke: ${(err as Error).message}`, true);
      }
      if (!finished) throw new ProviderError('AI provider stream ended mid-answer', true);
    },
  };
}
