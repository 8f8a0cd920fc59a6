// The composer's mode from what the device knows of the conversation (composerMode).
import { describe, expect, it } from 'vitest';
import { composerMode, type ComposerFacts } from '../../../src/pages/chat/composer-mode.ts';

const active = { status: 'active' };
const base: ComposerFacts = { conversation: active, conversationRead: true, verdict: 'loading', canSend: true, answering: false };

describe('composerMode', () => {
  it('ready, waiting while the AI answers, completed for a closed conversation', () => {
    expect(composerMode(base)).toBe('ready');
    expect(composerMode({ ...base, answering: true })).toBe('waiting');
    expect(composerMode({ ...base, conversation: { status: 'completed' } })).toBe('completed');
  });

  it('loading while the engine that sends is not there yet', () => {
    expect(composerMode({ ...base, canSend: false })).toBe('loading');
  });

  // Also the render after a pull where the messages' query answered before the conversation's: the
  // chat is not missing then, so its verdict is 'loading' (a clean-clone run lost a send when that
  // render was 'missing'). That ordering itself is walked only by chat-actions' 'still opening' journey.
  it('loading while the conversation row is not read, or read absent while it may still arrive', () => {
    expect(composerMode({ ...base, conversation: undefined, conversationRead: false })).toBe('loading');
    expect(composerMode({ ...base, conversation: undefined, verdict: 'loading' })).toBe('loading');
  });

  it("missing once the chat knows it will not come: not found, or not downloaded (offline)", () => {
    expect(composerMode({ ...base, conversation: undefined, verdict: 'not-found' })).toBe('missing');
    expect(composerMode({ ...base, conversation: undefined, verdict: 'not-downloaded' })).toBe('missing');
  });
});
