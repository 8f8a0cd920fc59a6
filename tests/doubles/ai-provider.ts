// A stand-in for an OpenAI-compatible chat-completions provider (POST <base>/chat/completions) that
// tests can break: 'ok' answers a fixed Slovak reply as one JSON completion, 'fail' answers 500,
// 'slow' waits delayMs first, 'stream' streams a script as server-sent events of
// chat.completion.chunk objects (OpenAI's streaming format) and then ends it as the script says:
// 'done' (finish_reason + [DONE]), 'error' (an error event mid-stream), 'cut' (the socket dropped),
// 'hang' (open, silent) or 'repeat' (the chunks again, forever: a long answer to stop).
// Every request is recorded with its body and, when the client went away first, when (an abort).
import { createServer, type Server, type ServerResponse } from 'node:http';

export type AiProviderMode = 'ok' | 'fail' | 'slow' | 'stream';

export interface StreamScript {
  chunks: string[];
  /** Pause before each chunk. */
  delayMs: number;
  then: 'done' | 'error' | 'cut' | 'hang' | 'repeat';
  /** Hold the stream before this chunk until `release()` (a test looks at the answer mid-stream). */
  holdAt?: number;
}

export interface ProviderCall {
  status: number;
  at: number;
  body: { stream?: boolean; messages?: { role: string; content: string }[] } | null;
  /** Set when the client closed the connection before the double ended its answer. */
  abortedAt?: number;
  /** Chunks sent before the end or the abort. */
  sent: number;
  /** When each chunk was written (ms since the epoch; the bench's provider clock). */
  sentAt: number[];
  /** When the stream's end was written ('done', 'error', 'cut'). */
  endedAt?: number;
  /** The request body's size in bytes (issue 36 N5: the prompt budget). */
  bytes: number;
}

export interface AiProviderDouble {
  /** Base URL to configure as AI_BASE_URL (…/v1). */
  url: string;
  setMode(mode: AiProviderMode, delayMs?: number): void;
  setStream(script: StreamScript): void;
  /** Lets a stream held at `holdAt` go on. */
  release(): void;
  calls: ProviderCall[];
  stop(): Promise<void>;
}

export const AI_DOUBLE_REPLY = 'Odpoveď testovacieho poskytovateľa AI.';

const chunk = (n: number, content: string | null, finish: string | null = null) =>
  `data: ${JSON.stringify({
    id: `chatcmpl-${n}`,
    object: 'chat.completion.chunk',
    choices: [{ index: 0, delta: content === null ? {} : { content }, finish_reason: finish }],
  })}\n\n`;

export async function startAiProviderDouble(): Promise<AiProviderDouble> {
  let mode: AiProviderMode = 'ok';
  let delay = 0;
  let script: StreamScript = { chunks: [AI_DOUBLE_REPLY], delayMs: 0, then: 'done' };
  const gate = { open: Promise.resolve(), release: () => undefined as void };
  const calls: ProviderCall[] = [];
  const server: Server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      let body: ProviderCall['body'];
      try {
        body = JSON.parse(Buffer.concat(chunks).toString('utf8')) as ProviderCall['body'];
      } catch {
        body = null;
      }
      const call: ProviderCall = { status: 0, at: Date.now(), body, sent: 0, sentAt: [], bytes: Buffer.concat(chunks).length };
      let ended = false;
      res.on('close', () => {
        if (!ended) call.abortedAt = Date.now();
      });
      const finish = (fn: () => void) => {
        ended = true;
        fn();
      };
      const answer = () => {
        if (!req.url?.endsWith('/chat/completions') || req.method !== 'POST') {
          finish(() => res.writeHead(404, { 'content-type': 'application/json' }).end('{"error":{"message":"not found"}}'));
          return;
        }
        calls.push(call);
        if (mode === 'fail') {
          call.status = 500;
          finish(() => res.writeHead(500, { 'content-type': 'application/json' }).end('{"error":{"message":"provider down","type":"server_error"}}'));
          return;
        }
        call.status = 200;
        if (mode === 'stream') return void streamOut(script, call, res, finish, gate);
        finish(() =>
          res.writeHead(200, { 'content-type': 'application/json' }).end(
            JSON.stringify({
              id: `chatcmpl-${calls.length}`,
              object: 'chat.completion',
              choices: [{ index: 0, message: { role: 'assistant', content: AI_DOUBLE_REPLY }, finish_reason: 'stop' }],
            }),
          ),
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
    setStream(s) {
      mode = 'stream';
      script = s;
      gate.open = new Promise<void>((r) => (gate.release = r));
    },
    release: () => gate.release(),
    stop: () =>
      new Promise<void>((r) => {
        server.closeAllConnections();
        server.close(() => r());
      }),
  };
}

async function streamOut(
  s: StreamScript,
  call: ProviderCall,
  res: ServerResponse,
  finish: (fn: () => void) => void,
  gate: { open: Promise<void> },
): Promise<void> {
  res.writeHead(200, { 'content-type': 'text/event-stream', 'cache-control': 'no-cache' });
  res.write(': keep-alive\n\n');
  const pause = () => new Promise((r) => setTimeout(r, s.delayMs));
  // A continuation (the reply so far as the last assistant message, then the instruction to go on)
  // resumes the script after that text, as a model continuing its answer would.
  const msgs = call.body?.messages ?? [];
  const partial = msgs.at(-2)?.role === 'assistant' ? msgs.at(-2)!.content : '';
  let start = 0;
  for (let acc = ''; partial && start < s.chunks.length && acc !== partial; start++) acc += s.chunks[start];
  if (partial && s.chunks.slice(0, start).join('') !== partial) start = 0;
  for (let i = start; ; i++) {
    if (i >= s.chunks.length && s.then !== 'repeat') break;
    if (i === s.holdAt) await gate.open;
    await pause();
    if (res.destroyed || call.abortedAt) return;
    res.write(chunk(call.sent, s.chunks[i % s.chunks.length]!));
    call.sentAt.push(Date.now());
    call.sent++;
  }
  if (s.then !== 'hang') call.endedAt = Date.now();
  if (s.then === 'done') finish(() => res.end(chunk(call.sent, null, 'stop') + 'data: [DONE]\n\n'));
  else if (s.then === 'error') finish(() => res.end(`data: ${JSON.stringify({ error: { message: 'overloaded', type: 'server_error' } })}\n\n`));
  else if (s.then === 'cut') finish(() => res.destroy());
  // 'hang': the response stays open and silent until the client gives up.
}
