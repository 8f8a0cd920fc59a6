// Signed download URLs: POST /object/sign/{bucket}/{path} answers { signedURL } =
// "/object/sign/{bucket}/{path}?token=<JWT>", the token an HS256 JWT with the project's secret whose
// `url` claim is "{bucket}/{path}" (supabase/storage src/storage/object.ts signObjectUrl,
// src/http/routes/object/getSignedObject.ts). Whoever holds the URL may GET that one object until
// `exp`; a token for another path, a forged signature or an expired token is 400.
import { errors as joseErrors, jwtVerify, SignJWT } from 'jose';
import { errors } from './errors.ts';

const enc = (secret: string) => new TextEncoder().encode(secret);

export async function signObjectUrl(secret: string, bucket: string, name: string, expiresIn: number): Promise<string> {
  const url = `${bucket}/${name}`;
  const now = Math.floor(Date.now() / 1000);
  const token = await new SignJWT({ url })
    .setProtectedHeader({ alg: 'HS256', typ: 'JWT' })
    .setIssuedAt(now)
    .setExpirationTime(now + expiresIn)
    .sign(enc(secret));
  return `/object/sign/${url}?token=${token}`;
}

export async function verifySignedUrl(secret: string, token: string | undefined, bucket: string, name: string): Promise<void> {
  if (!token) throw errors.invalidRequest('querystring must have required property \'token\'');
  let url: unknown;
  try {
    ({ payload: { url } } = await jwtVerify(token, enc(secret), { algorithms: ['HS256'] }));
  } catch (err) {
    if (err instanceof joseErrors.JWTExpired) throw errors.expiredToken();
    throw errors.invalidSignature();
  }
  if (url !== `${bucket}/${name}`) throw errors.invalidSignature();
}
