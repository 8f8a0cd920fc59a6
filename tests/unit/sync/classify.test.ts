// R1.3/R1.4 and R9.8: which server answers the engine retries and which are final.
import { describe, expect, it } from 'vitest';
import { CONVERSATION_IN_OTHER_ACCOUNT, kindOfStatus, otherAccountOf, serverErrorFromStatus } from '../../../sync/server/classify.ts';

describe('failure classification', () => {
  it('R1.3: network, timeouts, rate limits, an expired token and 5xx are transient; other 4xx final', () => {
    for (const s of [null, 0, 401, 408, 425, 429, 500, 503]) expect(kindOfStatus(s)).toBe('transient');
    for (const s of [400, 403, 404, 409, 422]) expect(kindOfStatus(s)).toBe('permanent');
  });

  it("R9.8: 409 'Conversation is in another account' waits (the admin's account switched on the server first)", () => {
    expect(serverErrorFromStatus(409, CONVERSATION_IN_OTHER_ACCOUNT).kind).toBe('transient');
    // Any other conflict (a unique violation) stays final, and so does the member's 404.
    expect(serverErrorFromStatus(409, 'duplicate key value violates unique constraint').kind).toBe('permanent');
    expect(serverErrorFromStatus(404, 'Conversation not found').kind).toBe('permanent');
  });

  it('R9.8: the account the 409 names is read from its details, nothing else is', () => {
    const account = '4D3F1A2B-0000-4000-8000-000000000001';
    expect(otherAccountOf(serverErrorFromStatus(409, CONVERSATION_IN_OTHER_ACCOUNT, account))).toBe(account.toLowerCase());
    expect(otherAccountOf(serverErrorFromStatus(409, CONVERSATION_IN_OTHER_ACCOUNT, 'not an id'))).toBeNull();
    expect(otherAccountOf(serverErrorFromStatus(409, 'duplicate key', account))).toBeNull();
    expect(otherAccountOf(new Error(CONVERSATION_IN_OTHER_ACCOUNT))).toBeNull();
  });
});
