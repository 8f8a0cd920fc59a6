// Types for the plain ESM summary script, so tests call it typed.
export declare const TIMINGS_DIR: string;
export declare function vitestFailures(report: unknown, label: string): string[];
export declare function playwrightFailures(report: unknown): string[];
export declare function summarizeTimings(options?: { top?: number; dir?: string }): string;
export declare function vitestIdle(report: unknown): { beforeFirst: number; between: number; one: number; end: number };
