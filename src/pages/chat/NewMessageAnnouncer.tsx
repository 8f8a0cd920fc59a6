// Screen readers hear each message that arrives while the chat is open (not the history, and not
// rows the virtual list re-renders while scrolling): a visually hidden polite log.
import { useEffect, useRef, useState } from 'react';
import type { LocalMessage } from '../../../sync/model/local-types.ts';
import { renderMarkdown } from '../../lib/markdown.ts';
import { sk } from '../../text/sk.ts';

/** What a screen reader should hear: the formatted text's words, not its markdown ('**', '#', '[…](…)'). */
export function spokenText(markdown: string): string {
  const html = renderMarkdown(markdown);
  const text = new DOMParser().parseFromString(html, 'text/html').body.textContent ?? '';
  return text.replace(/\s+/g, ' ').trim();
}

const MAX_ANNOUNCED = 3;
/**
 * How many of the newest messages each change is checked against. An arrival lands at the end of the
 * list (R4.1 orders by created_at); one placed further back is history catching up, not something
 * said while the user watches. Scanning the whole list (1,000+ rows) on every render of an arrival
 * cost the receiver ~1 ms of main thread each time (issue 19's profile).
 */
export const ANNOUNCE_SCAN = 50;

/** A reply still being written (R13) is announced once, whole, when it is complete. */
const streaming = (m: LocalMessage) => m.payload?.streaming === true;

export function NewMessageAnnouncer({ messages }: { messages: LocalMessage[] | undefined }) {
  const seen = useRef<Set<string> | null>(null);
  const [latest, setLatest] = useState<string[]>([]);
  useEffect(() => {
    if (!messages) return;
    if (seen.current === null) {
      // Everything shown when the chat opened, so a deletion that shifts an older message into the
      // scanned tail does not make it sound new.
      // A reply streaming at that moment is not yet said: it is announced when it completes.
      seen.current = new Set(messages.filter((m) => !streaming(m)).map((m) => m.key));
      return;
    }
    const fresh = messages.slice(-ANNOUNCE_SCAN).filter((m) => !seen.current!.has(m.key) && !streaming(m));
    for (const m of fresh) seen.current.add(m.key);
    // A batch is history arriving (first sync of a long chat), not messages to read out.
    if (fresh.length > MAX_ANNOUNCED) return;
    const incoming = fresh.filter((m) => m.direction !== 'user').map((m) => spokenText(m.text));
    if (incoming.length > 0) setLatest((prev) => [...prev, ...incoming].slice(-MAX_ANNOUNCED));
  }, [messages]);
  return (
    <div role="log" aria-live="polite" aria-label={sk.chat.newMessages} className="sr-only">
      {latest.map((t, i) => (
        <p key={i}>{t}</p>
      ))}
    </div>
  );
}
