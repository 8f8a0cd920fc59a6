// Each page change fades in over 0.22 s (index.css .page-enter; none under prefers-reduced-motion).
// Invariant: the first page of a document is painted at once, without the fade. Chromium does not
// count content under opacity 0 as a contentful paint and the compositor-run fade never repaints, so
// fading the first page in left the load with no First Contentful Paint at all (Lighthouse NO_FCP).
import { useEffect, useState, type ReactNode } from 'react';
import { useLocation } from 'react-router-dom';

/** Set once any page has been on screen in this document; later pages are changes and fade in. */
let pageShown = false;

/** `pageKey`: what counts as one page (by default its path); a change of it is a page change. */
export function PageTransition({ children, className = '', pageKey }: { children: ReactNode; className?: string; pageKey?: string }) {
  const location = useLocation();
  const pathname = pageKey ?? location.pathname;
  // The path this document opened on, until the user leaves it (then every page fades in).
  const [firstPath, setFirstPath] = useState<string | null>(() => (pageShown ? null : pathname));
  if (firstPath !== null && pathname !== firstPath) setFirstPath(null);
  useEffect(() => {
    pageShown = true;
  }, []);
  const fade = firstPath === null || pathname !== firstPath;
  return (
    <div key={pathname} className={`${fade ? 'page-enter' : ''} ${className}`}>
      {children}
    </div>
  );
}
