import { Outlet } from 'react-router-dom';
import { PageTransition } from '../layout/PageTransition.tsx';

/** /auth/*: no bars, just the page with the page-change animation. */
export function AuthArea() {
  return (
    <PageTransition>
      <Outlet />
    </PageTransition>
  );
}
