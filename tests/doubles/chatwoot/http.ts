// Small HTTP helpers shared by the two REST layers: tolerant parameter coercion in the spirit of
// Rails params (numbers and booleans may arrive as strings) and Chatwoot's error bodies.
import type { Context } from 'hono';
import { ChatwootError, type JsonObject } from './types.ts';

/** A JSON object body; an empty body is {}. Malformed JSON is Rails' 400 ParseError. */
export async function readBody(c: Context): Promise<JsonObject> {
  const text = await c.req.text();
  if (text.trim() === '') return {};
  try {
    const v: unknown = JSON.parse(text);
    if (typeof v === 'object' && v !== null && !Array.isArray(v)) return v as JsonObject;
  } catch {
    // fall through
  }
  throw new ChatwootError(400, { error: 'Error occurred while parsing request parameters' });
}

export function int(v: unknown): number | null {
  if (typeof v === 'number' && Number.isInteger(v)) return v;
  if (typeof v === 'string' && /^\d+$/.test(v)) return Number(v);
  return null;
}

export const str = (v: unknown): string | null =>
  typeof v === 'string' ? v : typeof v === 'number' ? String(v) : null;

export const bool = (v: unknown): boolean => v === true || v === 'true' || v === 1 || v === '1';

export const obj = (v: unknown): JsonObject | null =>
  typeof v === 'object' && v !== null && !Array.isArray(v) ? (v as JsonObject) : null;

/** Renders a thrown ChatwootError as Chatwoot does; anything else is a 500 with its message. */
export function errorResponse(c: Context, err: unknown): Response {
  if (err instanceof ChatwootError) return c.json(err.body, err.status);
  return c.json({ error: err instanceof Error ? err.message : String(err) }, 500);
}
