// What an AI specialist reply is made from.
export interface SpecialistProfile {
  id: string;
  name: string;
  role: string | null;
  seniority: string | null;
  bio: string | null;
  skills: string[];
}

export interface HistoryMessage {
  direction: 'user' | 'specialist' | 'system' | 'ai';
  text: string;
}

export interface ReplyRequest {
  specialist: SpecialistProfile;
  /** Oldest first; the last item is the user message being answered. */
  history: HistoryMessage[];
}

export interface ReplyProvider {
  readonly name: string;
  reply(req: ReplyRequest, signal: AbortSignal): Promise<string>;
}

/** A failure worth retrying (timeouts, 429, 5xx) versus one that will not heal by itself. */
export class ProviderError extends Error {
  constructor(
    message: string,
    readonly retryable: boolean,
  ) {
    super(message);
  }
}
