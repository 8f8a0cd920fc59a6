import { Link } from 'react-router-dom';
import { useDocumentTitle } from '../lib/use-document-title.ts';
import { sk } from '../text/sk.ts';

export function NotFoundPage() {
  useDocumentTitle(sk.notFound.code);
  return (
    <main className="flex min-h-dvh flex-col items-center justify-center gap-3 px-4 text-center">
      <h1 className="text-4xl font-bold">{sk.notFound.code}</h1>
      <p className="text-xl text-slate-600">{sk.notFound.text}</p>
      <Link to="/" className="link text-base">
        {sk.notFound.home}
      </Link>
    </main>
  );
}
