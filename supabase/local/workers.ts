// Background workers of the stack (AI replies and other durable jobs arrive with the functions issue).
import type pg from 'pg';
import type { StackConfig } from './config.ts';
import type { FunctionEnv } from '../functions/_shared/types.ts';

export interface Workers {
  stop(): Promise<void>;
}

export async function startWorkers(_deps: {
  pool: pg.Pool;
  config: StackConfig;
  env: () => FunctionEnv;
  log: (line: string) => void;
}): Promise<Workers> {
  return { stop: async () => {} };
}
