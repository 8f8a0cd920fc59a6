// In-memory sliding-window rate limits for the auth endpoints that send mail or test a secret.
// Per client IP and per e-mail, each endpoint counted separately. Password sign-in counts failures
// per e-mail rather than requests, so a user signing in on several devices is never locked out
// while guessing one account's password from many addresses still is. A refused request is not
// counted, so a client that backs off gets in again once its window has room.
import type { Context } from 'hono';
import { getConnInfo } from '@hono/node-server/conninfo';
import { tooManyRequests } from './errors.ts';

export type Bucket = 'token' | 'otp' | 'recover' | 'signup' | 'verify';

class SlidingWindow {
  private readonly hits = new Map<string, number[]>();
  private ops = 0;

  constructor(
    private readonly limit: number,
    private readonly windowMs: number,
  ) {}

  private recent(key: string, now: number): number[] {
    const kept = (this.hits.get(key) ?? []).filter((t) => now - t < this.windowMs);
    if (kept.length) this.hits.set(key, kept);
    else this.hits.delete(key);
    return kept;
  }

  /** True (and counted) if the key has room in its window. */
  take(key: string): boolean {
    const now = Date.now();
    this.sweep(now);
    const kept = this.recent(key, now);
    if (kept.length >= this.limit) return false;
    kept.push(now);
    this.hits.set(key, kept);
    return true;
  }

  full(key: string): boolean {
    return this.recent(key, Date.now()).length >= this.limit;
  }

  add(key: string): void {
    const kept = this.recent(key, Date.now());
    kept.push(Date.now());
    this.hits.set(key, kept);
  }

  clear(key: string): void {
    this.hits.delete(key);
  }

  /** Bounds memory: every so often, forget keys whose hits have all left the window. */
  private sweep(now: number): void {
    if (++this.ops % 1000 !== 0) return;
    for (const key of [...this.hits.keys()]) this.recent(key, now);
  }
}

export interface RateLimits {
  /** Throws 429 over_request_rate_limit when this IP is over its limit for the bucket. */
  ip(bucket: Bucket, ip: string): void;
  /** Throws 429 when this e-mail is over its limit; mail-sending buckets use over_email_send_rate_limit. */
  email(bucket: Bucket, email: string): void;
  loginAllowed(email: string): void;
  loginFailed(email: string): void;
  loginSucceeded(email: string): void;
}

export function createRateLimits(cfg: { perIp: number; perEmail: number; windowMs: number }): RateLimits {
  const byIp = new SlidingWindow(cfg.perIp, cfg.windowMs);
  const byEmail = new SlidingWindow(cfg.perEmail, cfg.windowMs);
  const failures = new SlidingWindow(cfg.perEmail, cfg.windowMs);
  return {
    ip(bucket, ip) {
      if (!byIp.take(`${bucket}:${ip}`)) throw tooManyRequests('over_request_rate_limit');
    },
    email(bucket, email) {
      if (byEmail.take(`${bucket}:${email.toLowerCase()}`)) return;
      throw tooManyRequests(bucket === 'otp' || bucket === 'recover' ? 'over_email_send_rate_limit' : 'over_request_rate_limit');
    },
    loginAllowed(email) {
      if (failures.full(email.toLowerCase())) throw tooManyRequests('over_request_rate_limit');
    },
    loginFailed(email) {
      failures.add(email.toLowerCase());
    },
    loginSucceeded(email) {
      failures.clear(email.toLowerCase());
    },
  };
}

/**
 * The client's address for the per-IP limits: the socket's peer. X-Forwarded-For is read only when the
 * operator says a proxy of theirs sets it (TRUST_X_FORWARDED_FOR); otherwise any client could name a
 * new address on every request and never meet a per-IP limit.
 */
export function clientIp(c: Context, trustForwardedFor: boolean): string {
  if (trustForwardedFor) {
    const forwarded = c.req.header('x-forwarded-for')?.split(',')[0]?.trim();
    if (forwarded) return forwarded;
  }
  try {
    return getConnInfo(c).remote.address ?? 'unknown';
  } catch {
    // app.request() in tests has no socket.
    return 'unknown';
  }
}
