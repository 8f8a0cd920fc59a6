// The contract between an edge function and whatever hosts it (Supabase's Deno runtime through each
// function's index.ts, or the local stack's functions host on Node). Handlers are pure
// (Request, env) -> Response, so tests and both runtimes call the same code.

export interface FunctionEnv {
  SUPABASE_URL: string;
  SUPABASE_ANON_KEY: string;
  SUPABASE_SERVICE_ROLE_KEY: string;
  [name: string]: string | undefined;
}

export type FunctionHandler = (req: Request, env: FunctionEnv) => Promise<Response>;
