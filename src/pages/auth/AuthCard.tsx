// The frame of every /auth screen: logo, a card with the heading, and links under it.
import type { ReactNode } from 'react';
import { Logo } from '../../components/Logo.tsx';
import { useDocumentTitle } from '../../lib/use-document-title.ts';

interface AuthCardProps {
  title: string;
  children: ReactNode;
  footer?: ReactNode;
}

export function AuthCard({ title, children, footer }: AuthCardProps) {
  useDocumentTitle(title);
  return (
    <main className="flex min-h-dvh flex-col items-center px-4 pt-[max(2.5rem,env(safe-area-inset-top))] pb-10">
      <div className="w-full max-w-sm">
        <div className="mb-6 flex justify-center">
          <Logo />
        </div>
        <section aria-labelledby="auth-title" className="card p-6">
          <h1 id="auth-title" className="mb-5 text-xl font-semibold">
            {title}
          </h1>
          {children}
        </section>
        {footer && <div className="mt-5 flex flex-col items-center gap-3 text-sm">{footer}</div>}
      </div>
    </main>
  );
}
