// Server-sent events framing (WHATWG HTML "Server-sent events", section "Interpreting an event
// stream"), as OpenAI-compatible providers send a streamed chat completion. No parser package is
// installed (eventsource-parser is not in node_modules) and the part we need is small: lines end in
// LF, CR or CRLF; a blank line ends an event; `data:` lines of one event are joined with LF; a
// line starting with ':' is a comment; other fields (event, id, retry) are not used by the format.

/** Yields the data of each event of a byte stream, decoding UTF-8 across chunk boundaries. */
export async function* sseData(body: ReadableStream<Uint8Array>): AsyncGenerator<string> {
  const decoder = new TextDecoder();
  const reader = body.getReader();
  let buffer = '';
  let data: string[] = [];
  try {
    for (;;) {
      const { value, done } = await reader.read();
      buffer += done ? decoder.decode() : decoder.decode(value, { stream: true });
      // A CR at the very end may be the first half of CRLF: keep it until more arrives.
      let at: number;
      while ((at = buffer.search(/\r\n|\r(?!$)|\n/)) >= 0) {
        const line = buffer.slice(0, at);
        buffer = buffer.slice(at + (buffer.startsWith('\r\n', at) ? 2 : 1));
        if (line === '') {
          if (data.length) yield data.join('\n');
          data = [];
        } else if (line.startsWith('data:')) {
          data.push(line.slice(line.startsWith('data: ') ? 6 : 5));
        }
      }
      if (done) {
        // The stream ended without the blank line: dispatch nothing (the spec discards it).
        return;
      }
    }
  } finally {
    reader.releaseLock();
  }
}
