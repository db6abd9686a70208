// A browser's live stream (GET /api/events/stream, Server-Sent Events) through nginx: it reads frames, and when the
// stream ends or breaks it reconnects after the `retry:` the server last gave, sending Last-Event-ID, as EventSource
// does. Every event received is kept with the connection it came on.

export interface StreamEvent {
  id: number;
  topic: string;
  /** The connection it came on (0: the first). */
  connection: number;
}

export interface LiveStream {
  events: StreamEvent[];
  /** When each connection was opened (Date.now()). */
  connections: number[];
  lastId(): number;
  stop(): Promise<void>;
}

export function openLiveStream(base: string, headers: Record<string, string>, startAfter: number): LiveStream {
  const events: StreamEvent[] = [];
  const connections: number[] = [];
  let lastId = startAfter;
  let retryMs = 3000;
  let running = true;
  const abort = new AbortController();

  const readOnce = async () => {
    const connection = connections.push(Date.now()) - 1;
    const response = await fetch(`${base}/api/events/stream`, {
      headers: { ...headers, accept: "text/event-stream", "last-event-id": String(lastId) },
      signal: abort.signal,
    });
    if (!response.ok || !response.body) throw new Error(`the live stream answered ${response.status}`);
    const reader = response.body.getReader();
    const decoder = new TextDecoder();
    let buffer = "";
    for (;;) {
      const { value, done } = await reader.read();
      if (done) return;
      buffer += decoder.decode(value, { stream: true });
      let end: number;
      while ((end = buffer.indexOf("\n\n")) >= 0) {
        const frame = buffer.slice(0, end);
        buffer = buffer.slice(end + 2);
        const fields = new Map(
          frame.split("\n").map((line) => [line.slice(0, line.indexOf(":")), line.slice(line.indexOf(":") + 1).trim()]),
        );
        if (fields.has("retry")) retryMs = Number(fields.get("retry"));
        if (fields.has("id")) {
          lastId = Number(fields.get("id"));
          events.push({ id: lastId, topic: fields.get("event") ?? "message", connection });
        }
      }
    }
  };

  const loop = (async () => {
    while (running) {
      await readOnce().catch(() => undefined);
      if (!running) return;
      await new Promise((resolve) => setTimeout(resolve, retryMs));
    }
  })();

  return {
    events,
    connections,
    lastId: () => lastId,
    async stop() {
      running = false;
      abort.abort();
      await loop;
    },
  };
}
