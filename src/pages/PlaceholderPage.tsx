// Stand-in for the data screens until the sync engine lands: says what the screen will hold.
import { useDocumentTitle } from '../lib/use-document-title.ts';

interface PlaceholderPageProps {
  /** Page heading; leave out where the header already shows the title. */
  heading?: string;
  documentTitle: string;
  description: string;
}

export function PlaceholderPage({ heading, documentTitle, description }: PlaceholderPageProps) {
  useDocumentTitle(documentTitle);
  return (
    <section className="flex flex-col gap-2 p-4" data-placeholder="true">
      {heading && <h1 className="text-xl font-semibold">{heading}</h1>}
      <p className="text-slate-600">{description}</p>
    </section>
  );
}
