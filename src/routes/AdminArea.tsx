// The whole /admin subtree (shell, tabs, admin texts and its own lazy screens) as one lazily loaded
// piece: members never download any of it. Rendered under the `/admin/*` route, so its routes are
// matched against the rest of the path.
import { useRoutes } from 'react-router-dom';
import { adminRoutes } from '../admin/admin-routes.tsx';

export function AdminArea() {
  return useRoutes(adminRoutes);
}
