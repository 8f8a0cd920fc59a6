// test-runner {testType: unit|e2e|edge, testId} (super admin) -> {success, output[], summary, testId}.
// Runs real checks on the server (admin-area.md /admin/tests): unit = schema, RLS and RPCs;
// e2e = a round trip with a temporary account; edge = the nine function checks.
import { requireSuperAdmin } from '../_shared/caller.ts';
import { serviceClient } from '../_shared/clients.ts';
import { handle, HttpError, json, readJsonObject } from '../_shared/http.ts';
import type { FunctionHandler } from '../_shared/types.ts';
import { e2eSuite } from '../_shared/testing/e2e-suite.ts';
import { edgeSuite } from '../_shared/testing/edge-suite.ts';
import { unitSuite } from '../_shared/testing/unit-suite.ts';
import { optionalString } from '../_shared/validate.ts';

const handler: FunctionHandler = (req, env) =>
  handle(async () => {
    if (req.method !== 'POST') throw new HttpError(405, 'Use POST');
    const caller = await requireSuperAdmin(req, env);
    const body = await readJsonObject(req);
    const type = body.testType;
    if (type !== 'unit' && type !== 'e2e' && type !== 'edge') throw new HttpError(400, 'testType must be unit, e2e or edge');
    const testId = optionalString(body, 'testId', 200);
    const service = serviceClient(env);
    const started = new Date().toISOString();
    const result =
      type === 'unit' ? await unitSuite(caller, service) : type === 'e2e' ? await e2eSuite(env, service) : await edgeSuite(caller, env);
    return json({ ...result, testId, testType: type, startTime: started, endTime: new Date().toISOString() });
  })(req);

export default handler;
