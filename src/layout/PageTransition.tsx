// Each new path fades in over 0.22 s (index.css .page-enter; none under prefers-reduced-motion).
import type { ReactNode } from 'react';
import { useLocation } from 'react-router-dom';

export function PageTransition({ children, className = '' }: { children: ReactNode; className?: string }) {
  const { pathname } = useLocation();
  return (
    <div key={pathname} className={`page-enter ${className}`}>
      {children}
    </div>
  );
}
