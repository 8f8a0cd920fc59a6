// A stand-in for an OpenAI-compatible chat-completions provider (POST <base>/chat/completions) that
// tests can break: 'ok' answers a fixed Slovak reply, 'fail' answers 500, 'slow' waits delayMs first.
import { createServer, type Server } from 'node:http';

export type AiProviderMode = 'ok' | 'fail' | 'slow';

export interface AiProviderDouble {
  /** Base URL to configure as AI_BASE_URL (…/v1). */
  url: string;
  setMode(mode: AiProviderMode, delayMs?: number): void;
  /** Requests received per answered status (200, 500), with the request body's size in bytes. */
  calls: { status: number; at: number; bytes: number }[];
  stop(): Promise<void>;
}

export const AI_DOUBLE_REPLY = 'Odpoveď testovacieho poskytovateľa AI.';

export async function startAiProviderDouble(): Promise<AiProviderDouble> {
  let mode: AiProviderMode = 'ok';
  let delay = 0;
  const calls: { status: number; at: number; bytes: number }[] = [];
  const server: Server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      const answer = () => {
        if (!req.url?.endsWith('/chat/completions') || req.method !== 'POST') {
          res.writeHead(404, { 'content-type': 'application/json' }).end('{"error":{"message":"not found"}}');
          return;
        }
        if (mode === 'fail') {
          calls.push({ status: 500, at: Date.now(), bytes: Buffer.concat(chunks).length });
          res.writeHead(500, { 'content-type': 'application/json' }).end('{"error":{"message":"provider down","type":"server_error"}}');
          return;
        }
        calls.push({ status: 200, at: Date.now(), bytes: Buffer.concat(chunks).length });
        res.writeHead(200, { 'content-type': 'application/json' }).end(
          JSON.stringify({
            id: `chatcmpl-${calls.length}`,
            object: 'chat.completion',
            choices: [{ index: 0, message: { role: 'assistant', content: AI_DOUBLE_REPLY }, finish_reason: 'stop' }],
          }),
        );
      };
      if (mode === 'slow') setTimeout(answer, delay);
      else answer();
    });
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  const addr = server.address();
  const port = typeof addr === 'object' && addr ? addr.port : 0;
  return {
    url: `http://127.0.0.1:${port}/v1`,
    calls,
    setMode(m, ms = 0) {
      mode = m;
      delay = ms;
    },
    stop: () =>
      new Promise<void>((r) => {
        server.closeAllConnections();
        server.close(() => r());
      }),
  };
}
