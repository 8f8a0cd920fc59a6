// What the fault proxy does to one request. Pure: the proxy feeds it a PRNG and acts on the answer.
// Invariant: the app shell (GET of anything outside the API prefixes) is never faulted, so pages
// always load; every API request is exposed to the full fault mix.
import type { Rng } from './prng.ts';

export type FaultKind = 'pass' | 'drop-before' | 'reject-503' | 'drop-after' | 'hang';

export interface FaultDecision {
  kind: FaultKind;
  /** Delay before the request is forwarded (or dropped). */
  delayMs: number;
}

export interface FaultConfig {
  /** Share of API requests dropped in total (split evenly between the three drop kinds). */
  dropRate: number;
  /** Upper bound of the delay given to requests that are not dropped. */
  maxDelayMs: number;
  /** Every websocket is cut after a time in [wsCutMinMs, wsCutMaxMs]. */
  wsCutMinMs: number;
  wsCutMaxMs: number;
  /**
   * Share of API requests black-holed: accepted and never answered while the run lasts (`--hang`,
   * off by default). Off, no random number is drawn for it, so seeds keep their fault stream.
   */
  hangRate: number;
}

export const DEFAULT_FAULTS: FaultConfig = { dropRate: 0.2, maxDelayMs: 3000, wsCutMinMs: 2000, wsCutMaxMs: 8000, hangRate: 0 };

const API_PREFIXES = ['/rest/', '/auth/', '/functions/', '/realtime/'];

export function isApiPath(path: string): boolean {
  return API_PREFIXES.some((p) => path.startsWith(p));
}

/** Static GETs (/, /assets, /env.js, /sw.js, icons) are exempt; everything else is fair game. */
export function isExempt(method: string, path: string): boolean {
  return (method === 'GET' || method === 'HEAD') && !isApiPath(path);
}

export function decideFault(rng: Rng, method: string, path: string, cfg: FaultConfig): FaultDecision {
  if (isExempt(method, path)) return { kind: 'pass', delayMs: 0 };
  if (cfg.hangRate > 0 && rng() < cfg.hangRate) return { kind: 'hang', delayMs: 0 };
  const r = rng();
  const delayMs = Math.floor(rng() * cfg.maxDelayMs);
  const third = cfg.dropRate / 3;
  // drop-after: the server does the work but the client never hears the answer (idempotency).
  if (r < third) return { kind: 'drop-before', delayMs };
  if (r < 2 * third) return { kind: 'reject-503', delayMs };
  if (r < cfg.dropRate) return { kind: 'drop-after', delayMs };
  return { kind: 'pass', delayMs };
}

export function wsCutDelay(rng: Rng, cfg: FaultConfig): number {
  return cfg.wsCutMinMs + Math.floor(rng() * (cfg.wsCutMaxMs - cfg.wsCutMinMs));
}
