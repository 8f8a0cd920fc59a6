// Under a streamed AI reply (R13): 'Zastaviť' while it is being written, the interrupted notice with
// 'Skúsiť znova', or a quiet note that it was stopped. The bubble itself grows in place (same key,
// same element) and shows a caret while streaming (index.css .ai-streaming).
import { useState } from 'react';
import type { LocalMessage } from '../../../sync/model/local-types.ts';
import { sk } from '../../text/sk.ts';
import { aiReplyCommand, aiReplyState } from './ai-reply-state.ts';

export function AiReplyControls({ message: m }: { message: LocalMessage }) {
  const state = aiReplyState(m);
  const [busy, setBusy] = useState(false);
  const [failed, setFailed] = useState<string | null>(null);
  if (state === null || m.serverId === null) return null;
  const run = (fn: 'stop_ai_reply' | 'retry_ai_reply') => {
    setBusy(true);
    setFailed(null);
    void aiReplyCommand(fn, m.serverId!).then((error) => {
      setBusy(false);
      if (error) setFailed(fn === 'stop_ai_reply' ? sk.aiStream.stopFailed : sk.aiStream.retryFailed);
    });
  };
  return (
    <div className="flex flex-col items-start gap-0.5 px-1 text-xs">
      {state === 'streaming' && (
        // Issue 39: a real button (a 44 px target with a stop square), not a small text link.
        <button type="button" data-testid="ai-stop" className="btn-secondary mt-1 gap-2 px-3 text-sm" disabled={busy} onClick={() => run('stop_ai_reply')}>
          <span aria-hidden="true" className="inline-block h-2.5 w-2.5 rounded-[2px] bg-current" />
          {sk.aiStream.stop}
        </button>
      )}
      {state === 'interrupted' && (
        <p role="alert" className="flex items-center gap-2 text-red-700">
          <span>{sk.aiStream.interrupted}</span>
          <button type="button" data-testid="ai-retry" className="link text-red-800" disabled={busy} onClick={() => run('retry_ai_reply')}>
            {sk.chat.retrySend}
          </button>
        </p>
      )}
      {state === 'stopped' && <p className="text-slate-500">{sk.aiStream.stopped}</p>}
      {failed && <p role="alert" className="text-red-700">{failed}</p>}
    </div>
  );
}
