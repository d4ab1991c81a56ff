/**
 * Reading a `text/event-stream` answer to one POST (hosted-tool-server.md §7: a streamable-HTTP server may answer
 * any POST with SSE, one event or several). Bytes are decoded as UTF-8 incrementally (invalid UTF-8 is an error)
 * and parsed with eventsource-parser; each complete event of type `message` (or no type) with data is offered to
 * `pick`, and the first one it accepts is kept with its data text exactly as sent. Nothing else is retained, so an
 * endless stream costs only the parser's line buffer (the caller caps the bytes read).
 */
import { createParser, type EventSourceParser } from "eventsource-parser";

export class EventStreamError extends Error {
  override readonly name = "EventStreamError";
}

export class EventStreamReader {
  private readonly decoder = new TextDecoder("utf-8", { fatal: true });
  private readonly parser: EventSourceParser;
  private picked: string | undefined;
  /** Events seen (with or without data). */
  events = 0;

  constructor(pick: (data: string) => boolean) {
    this.parser = createParser({
      onEvent: (e) => {
        this.events++;
        if (this.picked !== undefined || e.data === "") return;
        if (e.event !== undefined && e.event !== "message") return;
        if (pick(e.data)) this.picked = e.data;
      },
    });
  }

  /** Feeds a chunk; returns the picked event's data once there is one. Throws {@link EventStreamError} on bad UTF-8. */
  push(chunk: Uint8Array): string | undefined {
    let text: string;
    try {
      text = this.decoder.decode(chunk, { stream: true });
    } catch {
      throw new EventStreamError("the event stream is not valid UTF-8");
    }
    this.parser.feed(text);
    return this.picked;
  }

  /** End of the stream: an event without its closing blank line is discarded (as the SSE rules say). */
  end(): string | undefined {
    try {
      this.decoder.decode();
    } catch {
      throw new EventStreamError("the event stream ends inside a UTF-8 sequence");
    }
    return this.picked;
  }
}
