// Request bodies: parsed by hand so malformed JSON is a GoTrue 400 bad_json, never a 500, and read
// through small typed accessors so no untyped value reaches SQL.
import type { Context } from 'hono';
import { badRequest, validationFailed } from './errors.ts';

export type Json = Record<string, unknown>;

/** The JSON object body; an empty body is {} (logout and friends send none). */
export async function readBody(c: Context): Promise<Json> {
  const text = await c.req.text();
  if (text.trim() === '') return {};
  let parsed: unknown;
  try {
    parsed = JSON.parse(text);
  } catch (err) {
    throw badRequest('bad_json', `Could not parse request body as JSON: ${(err as Error).message}`);
  }
  if (typeof parsed !== 'object' || parsed === null || Array.isArray(parsed)) {
    throw badRequest('bad_json', 'Could not parse request body as JSON: expected an object');
  }
  return parsed as Json;
}

/** A string field; null and absence both read as undefined. */
export function str(body: Json, key: string): string | undefined {
  const v = body[key];
  if (v === undefined || v === null) return undefined;
  if (typeof v !== 'string') throw validationFailed(`${key} must be a string`);
  return v;
}

export function bool(body: Json, key: string): boolean | undefined {
  const v = body[key];
  if (v === undefined || v === null) return undefined;
  if (typeof v !== 'boolean') throw validationFailed(`${key} must be a boolean`);
  return v;
}

/** A JSON object field (metadata); null and absence read as undefined. */
export function obj(body: Json, key: string): Json | undefined {
  const v = body[key];
  if (v === undefined || v === null) return undefined;
  if (typeof v !== 'object' || Array.isArray(v)) throw validationFailed(`${key} must be an object`);
  return v as Json;
}
