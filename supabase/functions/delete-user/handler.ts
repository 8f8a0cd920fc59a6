// delete-user {userEmail} (super admin): deletes an account owner and all of the account's data.
// Super-admin owners are refused (the database function checks it too).
import { requireSuperAdmin } from '../_shared/caller.ts';
import { serviceClient } from '../_shared/clients.ts';
import { rpcError } from '../_shared/db-errors.ts';
import { handle, HttpError, json, readJsonObject } from '../_shared/http.ts';
import type { FunctionHandler } from '../_shared/types.ts';
import { email } from '../_shared/validate.ts';

const handler: FunctionHandler = (req, env) =>
  handle(async () => {
    if (req.method !== 'POST') throw new HttpError(405, 'Use POST');
    await requireSuperAdmin(req, env);
    const body = await readJsonObject(req);
    const userEmail = email(body, 'userEmail');
    const admin = serviceClient(env);
    const res = await admin.rpc('admin_delete_user', { p_email: userEmail });
    if (res.error) throw rpcError(res.error);
    return json({ success: true, deleted: res.data as unknown });
  })(req);

export default handler;
