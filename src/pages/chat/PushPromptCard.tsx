// R11.8's notifications prompt in the chat's own flow, between the messages and the composer
// (issue 37): it takes its own row, so the latest messages, their status and the composer stay in
// view; announced politely, answered with 'Zapnúť' or 'Teraz nie'.
import { acceptPushPrompt, dismissPushPrompt, usePushPromptShown } from '../../pwa/push-prompt.ts';
import { pushText } from '../../pwa/push-texts.ts';

export function PushPromptCard() {
  const shown = usePushPromptShown();
  return (
    <div role="status" aria-live="polite">
      {shown && (
        <div data-testid="push-prompt" className="mx-3 mb-2 flex flex-wrap items-center gap-x-3 gap-y-2 rounded-xl border border-slate-200 bg-white px-3 py-2 shadow-sm">
          <div className="min-w-0 flex-1 basis-48">
            <p className="text-sm font-medium text-slate-900">{pushText.prompt}</p>
            <p className="text-xs text-slate-600">{pushText.promptHint}</p>
          </div>
          <div className="flex shrink-0 gap-2">
            <button type="button" className="focus-ring min-h-11 rounded-lg px-3 text-sm font-medium text-slate-700 hover:bg-slate-100" onClick={dismissPushPrompt}>
              {pushText.promptNo}
            </button>
            <button type="button" className="focus-ring min-h-11 rounded-lg bg-teal-700 px-3 text-sm font-medium text-white hover:bg-teal-800" onClick={acceptPushPrompt}>
              {pushText.promptYes}
            </button>
          </div>
        </div>
      )}
    </div>
  );
}
