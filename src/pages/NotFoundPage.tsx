import { Link } from 'react-router-dom';
import { useDocumentTitle } from '../lib/use-document-title.ts';
import { skShell as sk } from '../text/sk-shell.ts';

/** `embedded`: inside a layout that already has its <main> (unknown /admin paths), as a plain block. */
export function NotFoundPage({ embedded = false }: { embedded?: boolean }) {
  useDocumentTitle(sk.notFound.code);
  const Root = embedded ? 'div' : 'main';
  // Embedded, the layout's header holds the page's h1.
  const Heading = embedded ? 'h2' : 'h1';
  return (
    <Root
      data-testid="not-found"
      className={`flex flex-col items-center justify-center gap-3 px-4 text-center ${embedded ? 'py-16' : 'min-h-dvh'}`}
    >
      <Heading className="text-4xl font-bold">{sk.notFound.code}</Heading>
      <p className="text-xl text-slate-600">{sk.notFound.text}</p>
      <Link to="/" className="link text-base">
        {sk.notFound.home}
      </Link>
    </Root>
  );
}
