// Which push endpoints the server will POST to. The endpoint is a URL the client hands in, so sending
// to any URL would let a user make the server call addresses of their choosing (SSRF). Browsers'
// subscriptions name their vendor's push service; only those hosts are called, always over https
// (RFC 8030 section 8), unless the operator opts in to any host (PUSH_ALLOW_PRIVATE_ENDPOINTS=1: the
// local stack's tests and a self-hosted push service) or names more hosts (PUSH_ENDPOINT_HOSTS=a,b).
import type { FunctionEnv } from '../types.ts';

/** The push services of Chrome/Edge-on-Android (FCM), Firefox (Autopush), Safari (APNs web push) and
 *  Edge on Windows (WNS); a subdomain of one counts too. */
export const PUSH_SERVICE_HOSTS = [
  'fcm.googleapis.com',
  'android.googleapis.com',
  'push.services.mozilla.com',
  'push.apple.com',
  'notify.windows.com',
];

export function endpointAllowed(endpoint: string, env: FunctionEnv): boolean {
  let url: URL;
  try {
    url = new URL(endpoint);
  } catch {
    return false;
  }
  if (url.protocol !== 'https:') return false;
  if (/^(1|true|yes)$/i.test(env.PUSH_ALLOW_PRIVATE_ENDPOINTS ?? '')) return true;
  if (url.port !== '') return false;
  const extra = (env.PUSH_ENDPOINT_HOSTS ?? '').split(',').map((h) => h.trim().toLowerCase()).filter((h) => h !== '');
  const host = url.hostname.toLowerCase();
  return [...PUSH_SERVICE_HOSTS, ...extra].some((h) => host === h || host.endsWith(`.${h}`));
}
