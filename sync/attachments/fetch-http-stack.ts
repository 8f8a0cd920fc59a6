// tus-js-client's HTTP stack over fetch, for the service worker (R12.12): its browser stack uses
// XMLHttpRequest, which a worker does not have. Same protocol, same requests; what fetch cannot
// give is upload progress, so the progress handler hears each request's body once it is answered
// (the uploader stores the accepted offset per chunk from onChunkComplete either way, R12.5).
// Abort ends the request through an AbortController; tus-js-client reports the rejection as a
// failure without an answer (status 0), which the uploader waits out (R12.7).
import type { HttpRequest, HttpResponse, HttpStack } from 'tus-js-client';

type Body = Blob | Uint8Array | string | null | undefined;

function bodySize(body: Body): number {
  if (body === null || body === undefined) return 0;
  if (typeof body === 'string') return new TextEncoder().encode(body).length;
  return body instanceof Blob ? body.size : body.byteLength;
}

class FetchResponse implements HttpResponse {
  constructor(
    private readonly res: Response,
    private readonly body: string,
  ) {}
  getStatus(): number {
    return this.res.status;
  }
  getHeader(header: string): string | undefined {
    return this.res.headers.get(header) ?? undefined;
  }
  getBody(): string {
    return this.body;
  }
  getUnderlyingObject(): Response {
    return this.res;
  }
}

class FetchRequest implements HttpRequest {
  private readonly headers: Record<string, string> = {};
  private readonly controller = new AbortController();
  private progress: (bytesSent: number) => void = () => undefined;

  constructor(
    private readonly method: string,
    private readonly url: string,
    private readonly doFetch: typeof fetch,
  ) {}
  getMethod(): string {
    return this.method;
  }
  getURL(): string {
    return this.url;
  }
  setHeader(header: string, value: string): void {
    this.headers[header] = value;
  }
  getHeader(header: string): string | undefined {
    return this.headers[header];
  }
  setProgressHandler(handler: (bytesSent: number) => void): void {
    this.progress = handler;
  }
  async send(body?: Body): Promise<HttpResponse> {
    const init: RequestInit = { method: this.method, headers: this.headers, signal: this.controller.signal };
    // A Uint8Array view is copied into a Blob: fetch's types take ArrayBuffer-backed views only.
    if (body !== null && body !== undefined) init.body = body instanceof Uint8Array ? new Blob([body.slice()]) : body;
    const res = await this.doFetch(this.url, init);
    const text = await res.text();
    this.progress(bodySize(body));
    return new FetchResponse(res, text);
  }
  abort(): Promise<void> {
    this.controller.abort();
    return Promise.resolve();
  }
  getUnderlyingObject(): AbortController {
    return this.controller;
  }
}

export function fetchHttpStack(doFetch: typeof fetch = (input, init) => fetch(input, init)): HttpStack {
  return {
    createRequest: (method, url) => new FetchRequest(method, url, doFetch),
    getName: () => 'FetchHttpStack',
  };
}
