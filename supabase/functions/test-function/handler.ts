// test-function (public): echoes {message} so diagnostics can prove the functions runtime answers.
import { handle, HttpError, json, readJsonObject } from '../_shared/http.ts';
import type { FunctionHandler } from '../_shared/types.ts';

const handler: FunctionHandler = (req) =>
  handle(async (r) => {
    if (r.method !== 'POST' && r.method !== 'GET') throw new HttpError(405, 'Use POST');
    const body = r.method === 'POST' ? await readJsonObject(r) : {};
    const message = body.message ?? 'ping';
    if (typeof message !== 'string') throw new HttpError(400, 'message must be a string');
    if (message.length > 10_000) throw new HttpError(400, 'message is longer than 10000 characters');
    return json({ ok: true, echo: message, received_at: new Date().toISOString() });
  })(req);

export default handler;
