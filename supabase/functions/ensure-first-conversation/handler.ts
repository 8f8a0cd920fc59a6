// ensure-first-conversation: the caller's account gets its first conversation (with the assistant
// specialist) if it has none. Reply {conversation_id, created}. Takes no parameters: the body may be
// empty or {}, anything that is not a JSON object is refused (400).
import { requireUser } from '../_shared/caller.ts';
import { rpcError } from '../_shared/db-errors.ts';
import { handle, HttpError, json, readJsonObject } from '../_shared/http.ts';
import type { FunctionHandler } from '../_shared/types.ts';

const handler: FunctionHandler = (req, env) =>
  handle(async () => {
    if (req.method !== 'POST') throw new HttpError(405, 'Use POST');
    const caller = await requireUser(req, env);
    await readJsonObject(req);
    const res = await caller.db.rpc('ensure_first_conversation');
    if (res.error) throw rpcError(res.error);
    return json(res.data);
  })(req);

export default handler;
