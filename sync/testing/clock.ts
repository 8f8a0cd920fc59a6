// A device clock for tests: the wall clock (`now`) can be set wrong (skew) and jump (steps) while
// durations stay real, as on a phone whose user or network sets its time. The same wrong time
// reaches the supabase-js auth client through `authStorage()`, so its token-expiry decisions are the
// ones that phone would make.
import type { SupportedStorage } from '@supabase/supabase-js';
import { systemClock, type Clock } from '../model/clock.ts';

export interface TestClock extends Clock {
  /** How far this device's wall clock is off the real one (ms; positive: ahead). */
  readonly skewMs: number;
  /** Sets the clock `ms` off the real time (0: correct). */
  setSkew(ms: number): void;
  /** The clock jumps by `ms` (negative: back), as when the phone's time is corrected. */
  step(ms: number): void;
  /**
   * A storage for supabase-js's `auth.storage` (with `persistSession: true`) that hands auth-js its
   * session with `expires_at` moved by this clock's skew. auth-js reads `Date.now()` itself (there is
   * no clock option: supabase/auth-js src/GoTrueClient.ts, `__loadSession` compares
   * `expires_at * 1000 - Date.now()` with EXPIRY_MARGIN_MS), and each of its expiry decisions reads
   * the session from storage first; an `expires_at` earlier by the skew is thus the same decision as
   * a `Date.now()` later by it. The true expiry is taken from the token's own `exp` claim on every
   * read, so later steps apply to a session stored earlier, as they would on the phone.
   */
  authStorage(): SupportedStorage;
}

/** The `exp` claim of a JWT (seconds), or null when it is not one. */
function tokenExpiry(token: unknown): number | null {
  if (typeof token !== 'string') return null;
  const part = token.split('.')[1];
  if (!part) return null;
  try {
    const payload = JSON.parse(Buffer.from(part, 'base64url').toString('utf8')) as { exp?: unknown };
    return typeof payload.exp === 'number' ? payload.exp : null;
  } catch {
    return null;
  }
}

export function createTestClock(initialSkewMs = 0): TestClock {
  let skew = initialSkewMs;
  // Timers come from the system clock as they are (including members added to Clock later): a
  // device's timers measure durations, which a wrong wall clock does not change.
  return {
    ...systemClock,
    now: () => Date.now() + skew,
    get skewMs() {
      return skew;
    },
    setSkew(ms) {
      skew = ms;
    },
    step(ms) {
      skew += ms;
    },
    authStorage() {
      const items = new Map<string, string>();
      return {
        getItem(key) {
          const raw = items.get(key);
          if (raw === undefined) return null;
          let session: { access_token?: unknown; expires_at?: unknown };
          try {
            session = JSON.parse(raw) as typeof session;
          } catch {
            return raw;
          }
          const exp = tokenExpiry(session.access_token);
          if (exp === null || typeof session.expires_at !== 'number') return raw;
          return JSON.stringify({ ...session, expires_at: exp - Math.round(skew / 1000) });
        },
        setItem(key, value) {
          items.set(key, value);
        },
        removeItem(key) {
          items.delete(key);
        },
      };
    },
  };
}
