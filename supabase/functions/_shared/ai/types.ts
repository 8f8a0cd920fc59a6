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

/** A specialist of the account's plan the built-in responder may point the user to. */
export interface PlanSpecialist {
  name: string;
  role: string | null;
  skills: string[];
}

export interface ReplyRequest {
  specialist: SpecialistProfile;
  /** Oldest first; the last item is the user message being answered. */
  history: HistoryMessage[];
  /** The reply's text already stored by an earlier run of the same job (a continuation after the
   *  wall-clock bound, or 'Skúsiť znova' after an interruption): the provider continues after it. */
  continueFrom?: string;
  /** The account's specialists (its plan's, or its custom list), for suggestions. */
  planSpecialists?: PlanSpecialist[];
}

/** A provider streams the reply: each yielded piece is appended to the text so far (R13.1). It must
 *  stop when the signal aborts (Stop, the wall-clock bound, the idle timeout). */
export interface ReplyProvider {
  readonly name: string;
  stream(req: ReplyRequest, signal: AbortSignal): AsyncIterable<string>;
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
