import { sk } from '../../text/sk.ts';

/** Three pulsing dots while an AI specialist is answering. */
export function TypingIndicator() {
  return (
    <div role="status" data-testid="typing-indicator" aria-label={sk.chat.typing} className="flex px-3 py-1">
      <span className="inline-flex items-center gap-1 rounded-2xl rounded-bl-md bg-slate-100 px-3 py-3">
        {[0, 150, 300].map((delay) => (
          <span key={delay} className="h-2 w-2 animate-bounce rounded-full bg-slate-400 motion-reduce:animate-none" style={{ animationDelay: `${delay}ms` }} />
        ))}
      </span>
    </div>
  );
}
