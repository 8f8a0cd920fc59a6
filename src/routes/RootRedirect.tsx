// '/' goes to the chats, except when it carries a mailed link's outcome: GoTrue sends a link whose
// redirect_to it does not allow to the site URL itself (`/#access_token=…`, `/#error=…`, `/?code=…`),
// and dropping that fragment signed nobody in with no word why (issue 37 user item 10). Such a visit
// goes to /auth/callback with the fragment and query intact, which completes it or says why not.
import { Navigate, useLocation } from 'react-router-dom';

const LINK_OUTCOME = /(^|[#&?])(access_token|error|error_code|code|token_hash)=/;

export function RootRedirect() {
  const { hash, search } = useLocation();
  if (LINK_OUTCOME.test(hash) || LINK_OUTCOME.test(search)) return <Navigate to={`/auth/callback${search}${hash}`} replace />;
  return <Navigate to="/app/chats" replace />;
}
