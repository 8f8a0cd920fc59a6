// chatwoot-pubsub-token {account_id?, user_id?} -> {pubsub_token, account_id, tokens[]}: what the browser
// needs to join Chatwoot's RoomChannel as its account's contact (one contact per specialist inbox).
// Only the caller's own account (or, for a super admin, any account named in the body).
// pubsub_token is the first token (null when the account has no Chatwoot conversation yet);
// account_id is the Chatwoot account id the RoomChannel identifier carries.
import { isSuperAdmin, requireUser } from '../_shared/caller.ts';
import { serviceClient } from '../_shared/clients.ts';
import { handle, HttpError, json, readJsonObject } from '../_shared/http.ts';
import type { FunctionHandler } from '../_shared/types.ts';
import { uuid } from '../_shared/validate.ts';

interface ContactRow {
  inbox_id: number;
  pubsub_token: string;
  source_id: string;
}

const handler: FunctionHandler = (req, env) =>
  handle(async () => {
    if (req.method !== 'POST') throw new HttpError(405, 'Use POST');
    const caller = await requireUser(req, env);
    const body = await readJsonObject(req);
    if (body.user_id !== undefined && body.user_id !== null && uuid(body, 'user_id') !== caller.user.id)
      throw new HttpError(403, 'user_id must be the caller');
    const service = serviceClient(env);
    let accountId: string;
    const own = await caller.db.rpc('current_account_id');
    if (own.error) throw new HttpError(500, 'Failed to fetch pubsub token');
    if (body.account_id !== undefined && body.account_id !== null && uuid(body, 'account_id') !== own.data) {
      if (!(await isSuperAdmin(env, caller.user.id))) throw new HttpError(403, 'Not a member of this account');
      accountId = uuid(body, 'account_id');
    } else {
      if (typeof own.data !== 'string') throw new HttpError(404, 'Account ID not found');
      accountId = own.data;
    }
    const cfg = await service.from('chatwoot_config').select('account_id').limit(1).maybeSingle<{ account_id: number }>();
    const contacts = await service
      .from('chatwoot_contacts')
      .select('inbox_id, pubsub_token, source_id')
      .eq('account_id', accountId)
      .order('inbox_id')
      .returns<ContactRow[]>();
    if (contacts.error) throw new HttpError(500, 'Failed to fetch pubsub token');
    const tokens = contacts.data.map((c) => ({ inbox_id: c.inbox_id, pubsub_token: c.pubsub_token }));
    return json({ pubsub_token: tokens[0]?.pubsub_token ?? null, account_id: cfg.data?.account_id ?? null, tokens });
  })(req);

export default handler;
