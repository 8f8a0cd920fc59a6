// Pure statistics of the browser rows: medians, and the median of per-pair ratios of interleaved
// A/B runs (each pair measured back to back, so drift on a shared machine cancels within a pair).
import { percentile } from './table.ts';

export function median(values: number[]): number {
  if (values.length === 0) return NaN;
  const s = [...values].sort((a, b) => a - b);
  const mid = s.length >> 1;
  return s.length % 2 ? s[mid]! : (s[mid - 1]! + s[mid]!) / 2;
}

export interface PairedResult {
  poradna: number;
  baseline: number;
  /** Median of poradna/baseline per pair (0.05 = Poradňa takes a twentieth of the baseline's time). */
  ratio: number;
}

export function paired(pairs: { a: number; b: number }[]): PairedResult {
  return { poradna: median(pairs.map((p) => p.a)), baseline: median(pairs.map((p) => p.b)), ratio: median(pairs.map((p) => p.a / p.b)) };
}

export function p50p95(values: number[]): { p50: number; p95: number } {
  return { p50: percentile(values, 50), p95: percentile(values, 95) };
}

/** Frames over `limitMs` in a list of frame timestamps (requestAnimationFrame times). */
export function longFrames(timestamps: number[], limitMs = 50): { count: number; worst: number } {
  let count = 0;
  let worst = 0;
  for (let i = 1; i < timestamps.length; i++) {
    const d = timestamps[i]! - timestamps[i - 1]!;
    if (d > limitMs) count++;
    worst = Math.max(worst, d);
  }
  return { count, worst };
}
