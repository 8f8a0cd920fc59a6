// ensure-first-conversation: the caller's account gets its first conversation (with the assistant
// specialist) if it has none. Reply {conversation_id, created}.
import { requireUser } from '../_shared/caller.ts';
import { rpcError } from '../_shared/db-errors.ts';
import { handle, HttpError, json } from '../_shared/http.ts';
import type { FunctionHandler } from '../_shared/types.ts';

const handler: FunctionHandler = (req, env) =>
  handle(async () => {
    if (req.method !== 'POST') throw new HttpError(405, 'Use POST');
    const caller = await requireUser(req, env);
    const res = await caller.db.rpc('ensure_first_conversation');
    if (res.error) throw rpcError(res.error);
    return json(res.data);
  })(req);

export default handler;
