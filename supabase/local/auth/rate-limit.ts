// In-memory sliding-window rate limits for the auth endpoints that send mail or test a secret.
// Per client IP and per e-mail, each endpoint counted separately. A refused request is not counted,
// so a client that backs off gets in again once its window has room.
// Password sign-in is limited per client IP only, as GoTrue does (supabase/auth internal/api/token.go
// `Token`: one limiter keyed by the client address for the grant, apilimiter.go `Token`,
// RATE_LIMIT_TOKEN_REFRESH): there is no per-address lockout, because wrong passwords sent for
// someone else's address would lock its owner out (issue 36 N7). Guessing from many addresses meets
// each address's own limit; the owner, from theirs, always gets in.
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
}

export function createRateLimits(cfg: { perIp: number; perEmail: number; windowMs: number }): RateLimits {
  const byIp = new SlidingWindow(cfg.perIp, cfg.windowMs);
  const byEmail = new SlidingWindow(cfg.perEmail, cfg.windowMs);
  return {
    ip(bucket, ip) {
      if (!byIp.take(`${bucket}:${ip}`)) throw tooManyRequests('over_request_rate_limit');
    },
    email(bucket, email) {
      if (byEmail.take(`${bucket}:${email.toLowerCase()}`)) return;
      throw tooManyRequests(bucket === 'otp' || bucket === 'recover' ? 'over_email_send_rate_limit' : 'over_request_rate_limit');
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
