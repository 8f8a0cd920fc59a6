// Storage API errors in the service's own shape: HTTP status, and a body
// { statusCode: "<status>", code, error, message } (supabase/storage src/internal/errors/
// storage-error.ts render(), codes in src/internal/errors/codes.ts). PostgreSQL errors map as
// src/storage/database/errors.ts DBError.fromDBError does: 42501 (RLS or grants) → 403 AccessDenied,
// 23505 → 409 Duplicate. Anything else is a 500 and is logged, never shown.

export class StorageError extends Error {
  constructor(
    readonly status: number,
    readonly code: string,
    message: string,
  ) {
    super(message);
  }

  body(): Record<string, string> {
    return { statusCode: String(this.status), code: this.code, error: this.code, message: this.message };
  }
}

export const errors = {
  noSuchBucket: () => new StorageError(404, 'NoSuchBucket', 'Bucket not found'),
  noSuchKey: () => new StorageError(404, 'NoSuchKey', 'Object not found'),
  invalidJwt: (message = 'Invalid JWT') => new StorageError(400, 'InvalidJWT', message),
  missingAuth: () => new StorageError(400, 'InvalidJWT', "headers must have required property 'authorization'"),
  accessDenied: (message = 'new row violates row-level security policy') => new StorageError(403, 'AccessDenied', message),
  duplicate: () => new StorageError(409, 'Duplicate', 'The resource already exists'),
  tooLarge: (limit: string) => new StorageError(413, 'EntityTooLarge', `The object exceeded ${limit}`),
  invalidMime: (mime: string) => new StorageError(415, 'InvalidMimeType', `mime type ${mime} is not supported`),
  contentMismatch: (mime: string) =>
    new StorageError(415, 'InvalidMimeType', `the content of the file is not ${mime}`),
  invalidSignature: (message = 'Invalid signature') => new StorageError(400, 'InvalidSignature', message),
  expiredToken: () => new StorageError(400, 'ExpiredToken', 'jwt expired'),
  missingContentLength: () => new StorageError(400, 'MissingContentLength', 'You must provide the Content-Length HTTP header.'),
  invalidRequest: (message: string) => new StorageError(400, 'InvalidRequest', message),
  invalidKey: (name: string) => new StorageError(400, 'InvalidKey', `Invalid key: ${name}`),
};

/** Maps an error from PostgreSQL to the Storage API's answer; undefined when it is not one it knows. */
export function fromPg(err: unknown): StorageError | undefined {
  const code = (err as { code?: unknown }).code;
  const message = (err as Error).message ?? '';
  if (code === '42501') {
    return errors.accessDenied(message.includes('row-level security') ? 'new row violates row-level security policy' : message);
  }
  if (code === '23505') return errors.duplicate();
  return undefined;
}
