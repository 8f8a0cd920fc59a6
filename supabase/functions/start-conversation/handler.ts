// start-conversation {specialist_id, card_id?} -> {conversation_id, created}. A welcome_text in the
// body is ignored: the database takes the welcome from the card message card_id names (issue 16 item 9).
// The database refuses specialists the caller's account may not use (403).
import { requireUser } from '../_shared/caller.ts';
import { rpcError } from '../_shared/db-errors.ts';
import { handle, HttpError, json, readJsonObject } from '../_shared/http.ts';
import type { FunctionHandler } from '../_shared/types.ts';
import { optionalString, uuid } from '../_shared/validate.ts';

const handler: FunctionHandler = (req, env) =>
  handle(async () => {
    if (req.method !== 'POST') throw new HttpError(405, 'Use POST');
    const caller = await requireUser(req, env);
    const body = await readJsonObject(req);
    const args = {
      p_specialist_id: uuid(body, 'specialist_id'),
      p_card_id: optionalString(body, 'card_id', 200),
    };
    const res = await caller.db.rpc('start_conversation', args);
    if (res.error) throw rpcError(res.error);
    return json(res.data);
  })(req);

export default handler;
