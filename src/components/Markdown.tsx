import { useMemo } from 'react';
import { renderMarkdown } from '../lib/markdown.ts';

interface MarkdownProps {
  text: string;
  className?: string;
}

/** Formatted message text; the HTML comes from renderMarkdown, which never passes raw HTML through. */
export function Markdown({ text, className }: MarkdownProps) {
  const html = useMemo(() => renderMarkdown(text), [text]);
  return <div className={`markdown ${className ?? ''}`.trim()} dangerouslySetInnerHTML={{ __html: html }} />;
}
