// Error messages from supabase-js answers and thrown values.
export function messageOf(err: unknown, fallback = 'Unknown error'): string {
  if (err instanceof Error && err.message) return err.message;
  if (typeof err === 'string' && err) return err;
  if (err && typeof err === 'object' && 'message' in err && typeof err.message === 'string' && err.message) return err.message;
  return fallback;
}

/**
 * Throws a PostgREST error as an Error; otherwise the data, typed as the caller knows the server
 * answers (the client carries no generated schema types).
 */
export function dataOf<T>(res: { data: unknown; error: { message: string } | null }): T {
  if (res.error) throw new Error(res.error.message);
  return res.data as T;
}
