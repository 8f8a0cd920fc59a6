// Calls a server function through supabase-js; a failed call throws an Error carrying the message
// the function answered ({error} or {msg}), else supabase-js' own message.
import { supabase } from '../../supabase.ts';

interface ErrorBody {
  error?: unknown;
  msg?: unknown;
  message?: unknown;
}

async function replyMessage(context: unknown): Promise<string | null> {
  if (!(context instanceof Response)) return null;
  try {
    const body = (await context.clone().json()) as ErrorBody;
    for (const v of [body.error, body.msg, body.message]) if (typeof v === 'string' && v) return v;
  } catch {
    /* not JSON */
  }
  return null;
}

export class FunctionCallError extends Error {
  constructor(
    message: string,
    readonly status: number | null,
  ) {
    super(message);
  }
}

export async function invokeFunction<T>(name: string, body?: Record<string, unknown>): Promise<T> {
  const res = await supabase.functions.invoke<T>(name, { method: 'POST', ...(body ? { body } : {}) });
  if (res.error) {
    const context: unknown = (res.error as { context?: unknown }).context;
    const status = context instanceof Response ? context.status : null;
    const message = (await replyMessage(context)) ?? (res.error as Error).message;
    throw new FunctionCallError(message, status);
  }
  return res.data as T;
}
