// conversation-read {conversationId, last_read_message_id}: moves the caller's read cursor forward
// (never back). Reply {ok: true, cursor}.
import { requireUser } from '../_shared/caller.ts';
import { rpcError } from '../_shared/db-errors.ts';
import { handle, HttpError, json, readJsonObject } from '../_shared/http.ts';
import type { FunctionHandler } from '../_shared/types.ts';
import { uuid } from '../_shared/validate.ts';

const handler: FunctionHandler = (req, env) =>
  handle(async () => {
    if (req.method !== 'POST') throw new HttpError(405, 'Use POST');
    const caller = await requireUser(req, env);
    const body = await readJsonObject(req);
    const res = await caller.db.rpc('mark_read', {
      p_conversation_id: uuid(body, 'conversationId'),
      p_message_id: uuid(body, 'last_read_message_id'),
    });
    if (res.error) throw rpcError(res.error);
    return json({ ok: true, cursor: res.data as unknown });
  })(req);

export default handler;
