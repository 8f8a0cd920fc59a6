// Types for the plain ESM shard script, so tests call it typed.
export interface Shard {
  files: string[];
  seconds: number;
}
export declare const DURATIONS_FILE: string;
export declare function journeyFiles(dir?: string): string[];
export declare function readDurations(file?: string): Record<string, number>;
export declare function splitByTime(files: string[], seconds: Record<string, number>, n: number): Shard[];
export declare function writeShardLists(n: number, dir: string, options?: { e2eDir?: string; durations?: Record<string, number> }): { path: string; seconds: number; files: number }[];
export declare function durationsFromReport(report: unknown): Record<string, number>;
export declare function writeDurations(reports: unknown[], file?: string): Record<string, number>;
