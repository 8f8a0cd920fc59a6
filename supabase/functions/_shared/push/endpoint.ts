// Which push endpoints the server will POST to. The endpoint is a URL the client hands in, so sending
// to any URL would let a user make the server call addresses of their choosing (SSRF). Browsers'
// subscriptions name their vendor's push service; only those hosts are called, always over https
// (RFC 8030 section 8), unless the operator opts in to any host (PUSH_ALLOW_PRIVATE_ENDPOINTS=1: the
// local stack's tests and a self-hosted push service) or names more hosts (PUSH_ENDPOINT_HOSTS=a,b).
//
// Issue 36 N2: web-push connects to the host of Node's legacy url.parse(), which ends a host at `;`,
// `'`, `{`, `}`, `%` and more, where the WHATWG parser keeps them in the host:
// `https://127.0.0.11;.fcm.googleapis.com/v1` is "a subdomain of fcm.googleapis.com" to new URL() and
// 127.0.0.11:443 to web-push. So an endpoint must have one shape both parsers read alike — `https://`,
// a plain LDH host name, an optional port, then nothing but a path or query — and both parsers must
// name the same host and port. The same shape is checked in SQL by push_subscribe
// (private.push_endpoint_allowed, migration 20261128000200_push_endpoint_hosts.sql), and this check
// runs again before every send, for rows stored before that migration.
import { parse as legacyParse } from 'node:url';
import type { FunctionEnv } from '../types.ts';

/** The push services of Chrome/Edge-on-Android (FCM), Firefox (Autopush), Safari (APNs web push) and
 *  Edge on Windows (WNS); a subdomain of one counts too. Also the SQL default of
 *  private.push_settings.endpoint_hosts. */
export const PUSH_SERVICE_HOSTS = [
  'fcm.googleapis.com',
  'android.googleapis.com',
  'push.services.mozilla.com',
  'push.apple.com',
  'notify.windows.com',
];

/** `https://`, host, optional port, then a path or query of RFC 3986 characters only (no `\`, `#`,
 *  spaces, braces). Keep equal to the pattern in private.push_endpoint_allowed. */
const ENDPOINT_SHAPE = /^https:\/\/([A-Za-z0-9.-]+)(?::([0-9]{1,5}))?(?:[/?][A-Za-z0-9._~!$&'()*+,;=:@%/?-]*)?$/;
/** Letters, digits and hyphens in dot-separated labels of 1–63 characters (RFC 1123). */
const LDH_HOST = /^(?:[a-z0-9](?:[a-z0-9-]{0,61}[a-z0-9])?\.)*[a-z0-9](?:[a-z0-9-]{0,61}[a-z0-9])?$/;

/** PUSH_ALLOW_PRIVATE_ENDPOINTS: any LDH host or address, any port (tests' fake service, a self-hosted one). */
export const allowAnyHost = (env: FunctionEnv): boolean => /^(1|true|yes)$/i.test(env.PUSH_ALLOW_PRIVATE_ENDPOINTS ?? '');

/** The allowed push-service hosts: the known services and PUSH_ENDPOINT_HOSTS. */
export function pushServiceHosts(env: FunctionEnv): string[] {
  const extra = (env.PUSH_ENDPOINT_HOSTS ?? '').split(',').map((h) => h.trim().toLowerCase()).filter((h) => h !== '');
  return [...PUSH_SERVICE_HOSTS, ...extra];
}

export function endpointAllowed(endpoint: string, env: FunctionEnv): boolean {
  const shape = ENDPOINT_SHAPE.exec(endpoint);
  if (!shape) return false;
  const host = shape[1]!.toLowerCase();
  const port = shape[2] ?? '';
  if (host.length > 253 || !LDH_HOST.test(host)) return false;
  let url: URL;
  try {
    url = new URL(endpoint);
  } catch {
    return false;
  }
  const legacy = legacyParse(endpoint);
  // The host web-push connects to (legacy) is the host we checked (WHATWG and the shape).
  if (url.protocol !== 'https:' || legacy.protocol !== 'https:') return false;
  if (url.hostname !== host || (legacy.hostname ?? '') !== host) return false;
  if (url.port !== (port === '443' ? '' : port) || (legacy.port ?? '') !== port) return false;
  if (allowAnyHost(env)) return true;
  if (port !== '') return false;
  return pushServiceHosts(env).some((h) => host === h || host.endsWith(`.${h}`));
}
