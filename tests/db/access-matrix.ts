// The written access expectations: every table and view of the public schema, for each caller and
// each operation through PostgREST. access-matrix.test.ts builds fresh fixtures per cell and checks
// the database afterwards, so a cell passes only if the write really happened (or really did not).
//
// Callers: anon (anon key, no user), memberA (member of account A), memberB (member of account B),
// admin (a super admin who is NOT impersonating), service (the service-role key).
// Each table has two fixture rows, A and B, described in the test's fixtures; for account data they
// belong to account A and account B. select lists which of them the caller can read ('-' none).
// insert/update/delete say whether the caller's write takes effect ('yes') or not ('no': refused or a
// no-op). Writes target account A (or row A) for every caller.

export const ROLES = ['anon', 'memberA', 'memberB', 'admin', 'service'] as const;
export type Role = (typeof ROLES)[number];
export const OPS = ['select', 'insert', 'update', 'delete'] as const;
export type Op = (typeof OPS)[number];
export type Cell = '-' | 'A' | 'B' | 'AB' | 'yes' | 'no';

type Row = readonly [Cell, Cell, Cell, Cell, Cell];
type TableExpectations = Readonly<Record<Op, Row>>;

const serviceOnly: Row = ['no', 'no', 'no', 'no', 'yes'];
const adminAndService: Row = ['no', 'no', 'no', 'yes', 'yes'];
const nobody: Row = ['no', 'no', 'no', 'no', 'no'];

//                                      anon   memberA memberB admin   service
export const MATRIX: Readonly<Record<string, TableExpectations>> = {
  // The catalogue: readable by every signed-in user, written only by server code.
  plans: {
    select: ['-', 'AB', 'AB', 'AB', 'AB'],
    insert: serviceOnly,
    update: serviceOnly,
    delete: serviceOnly,
  },
  plan_specialists: {
    select: ['-', 'AB', 'AB', 'AB', 'AB'],
    insert: serviceOnly,
    update: serviceOnly,
    delete: serviceOnly,
  },
  specialists: {
    select: ['-', 'AB', 'AB', 'AB', 'AB'],
    insert: serviceOnly,
    update: serviceOnly,
    delete: serviceOnly,
  },
  // Accounts: own account for members, all for super admins, who may change them (plan, mode, name).
  accounts: {
    select: ['-', 'A', 'B', 'AB', 'AB'],
    insert: serviceOnly,
    update: adminAndService,
    delete: serviceOnly,
  },
  account_users: {
    select: ['-', 'A', 'B', 'AB', 'AB'],
    insert: serviceOnly,
    update: serviceOnly,
    delete: serviceOnly,
  },
  // Rows A and B: two other super admins' rows. A member reads only their own row (they have none).
  app_users: {
    select: ['-', '-', '-', 'AB', 'AB'],
    insert: serviceOnly,
    update: serviceOnly,
    delete: serviceOnly,
  },
  account_specialists: {
    select: ['-', 'A', 'B', 'AB', 'AB'],
    insert: adminAndService,
    update: adminAndService,
    delete: adminAndService,
  },
  // Chat data: only the account acted for. Members archive (update archived_at) but never insert
  // conversations (start_conversation does) nor change messages.
  conversations: {
    select: ['-', 'A', 'B', '-', 'AB'],
    insert: serviceOnly,
    update: ['no', 'yes', 'no', 'no', 'yes'],
    delete: serviceOnly,
  },
  messages: {
    select: ['-', 'A', 'B', '-', 'AB'],
    insert: ['no', 'yes', 'no', 'no', 'yes'],
    update: serviceOnly,
    delete: serviceOnly,
  },
  // Rows A and B: memberA's cursor in account A, memberB's in account B. Inserts are the caller's own.
  read_cursors: {
    select: ['-', 'A', 'B', '-', 'AB'],
    insert: ['no', 'yes', 'no', 'no', 'yes'],
    update: ['no', 'yes', 'no', 'no', 'yes'],
    delete: serviceOnly,
  },
  deleted_rows: {
    select: ['-', 'A', 'B', '-', 'AB'],
    insert: serviceOnly,
    update: serviceOnly,
    delete: serviceOnly,
  },
  // Row A: the admin's own impersonation (of account A); row B: another admin's. Changed only by RPCs.
  impersonations: {
    select: ['-', '-', '-', 'A', 'AB'],
    insert: serviceOnly,
    update: serviceOnly,
    delete: serviceOnly,
  },
  audit_log: {
    select: ['-', '-', '-', 'AB', 'AB'],
    insert: serviceOnly,
    update: serviceOnly,
    delete: serviceOnly,
  },
  // A single row (A): only super admins manage it.
  chatwoot_config: {
    select: ['-', '-', '-', 'A', 'A'],
    insert: adminAndService,
    update: adminAndService,
    delete: adminAndService,
  },
  integration_events: {
    select: ['-', '-', '-', 'AB', 'AB'],
    insert: serviceOnly,
    update: serviceOnly,
    delete: serviceOnly,
  },
  ai_reply_jobs: {
    select: ['-', '-', '-', '-', 'AB'],
    insert: serviceOnly,
    update: serviceOnly,
    delete: serviceOnly,
  },
  // Web Push (issue 20): a user's own devices (no super admin access: an endpoint is a capability);
  // written through push_subscribe only, deleted by their owner. What devices show, the queue and
  // the deliveries are the push worker's.
  push_subscriptions: {
    select: ['-', 'A', 'B', '-', 'AB'],
    insert: serviceOnly,
    update: serviceOnly,
    delete: ['no', 'yes', 'no', 'no', 'yes'],
  },
  push_viewing: {
    select: ['-', 'A', 'B', '-', 'AB'],
    insert: serviceOnly,
    update: serviceOnly,
    delete: serviceOnly,
  },
  push_notifications: {
    select: ['-', '-', '-', '-', 'AB'],
    insert: serviceOnly,
    update: serviceOnly,
    delete: serviceOnly,
  },
  push_deliveries: {
    select: ['-', '-', '-', '-', 'AB'],
    insert: serviceOnly,
    update: serviceOnly,
    delete: serviceOnly,
  },
  // From the functions' migration: members read their account's Chatwoot contact tokens.
  chatwoot_contacts: {
    select: ['-', 'A', 'B', '-', 'AB'],
    insert: serviceOnly,
    update: serviceOnly,
    delete: serviceOnly,
  },
  // The admin checks' own Chatwoot conversation (20261124000201): the functions' business only.
  chatwoot_diagnostics: {
    select: ['-', '-', '-', '-', 'AB'],
    insert: serviceOnly,
    update: serviceOnly,
    delete: serviceOnly,
  },
  // Rows A and B: accounts A and B. Read-only for everyone, service role included.
  v_admin_accounts: {
    select: ['-', '-', '-', 'AB', 'AB'],
    insert: nobody,
    update: nobody,
    delete: nobody,
  },
};
