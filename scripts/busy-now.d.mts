// Types for the plain ESM script, so tests call it typed.
export interface Ticks {
  comm: string;
  start: number;
  ticks: number;
}
export declare function cpuTicks(proc?: string): Map<string, Ticks>;
export declare function busiest(before: Map<string, Ticks>, after: Map<string, Ticks>, seconds: number, options?: { hz?: number; top?: number }): { comm: string; percent: number }[];
export declare function busyNow(ms?: number): Promise<string>;
