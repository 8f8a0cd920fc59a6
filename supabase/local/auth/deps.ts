// What the auth service needs from the stack.
import type pg from 'pg';
import type { StackConfig } from '../config.ts';
import type { StackKeys } from '../keys.ts';
import type { Mailer } from '../mailbox.ts';

export interface AuthDeps {
  /** Superuser pool on the stack's database (the auth schema lives there). */
  pool: pg.Pool;
  keys: StackKeys;
  config: StackConfig;
  mailer: Mailer;
  /** The public origin, e.g. http://localhost:8080 (links in mails point here). */
  publicUrl: () => string;
}
