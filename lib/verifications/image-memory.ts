/*
 * Images read ahead: the queue's next case's pictures, fetched while the analyst works the current case, so
 * "next" shows them at once. In memory only, never persisted: the bytes come from the dashboard's own image
 * route (`/api/media/<token>`, a sealed token issued to this member, never the service's signed URL), become a
 * `blob:` address this tab alone can open, and are decoded once ahead; no Cache Storage, IndexedDB or Web
 * Storage is involved, and the image route's `Cache-Control: no-store` keeps them out of the HTTP cache.
 *
 * An entry lives while someone holds it: the page that reads the next case ahead, then the page that shows
 * it. A grace period bridges the hand-over between the two (one page leaves as the other arrives); once nobody
 * holds it, every address is revoked, fetches still under way are aborted and the bytes are let go.
 *
 * The audit trail stays true: the image route records a read ahead as `ahead: "read"` (delivered, not
 * shown), and the page reports each picture it shows from here once (`ahead: "shown"`, ShownReporter below).
 * Shared with the browser: no server imports; the browser's fetch, URL and Image come in as dependencies.
 */

export interface ImageMemoryDeps {
  /** One image's bytes (the read ahead of its `/api/media/…` address); rejects on any refusal. */
  fetchBytes: (src: string, signal: AbortSignal) => Promise<Blob>;
  createUrl: (blob: Blob) => string;
  revokeUrl: (url: string) => void;
  /** Decodes the picture ahead; resolves with what must stay referenced for the decoded picture to be kept. */
  decode: (url: string) => Promise<unknown>;
  /** How long an entry nobody holds survives (the hand-over from one page to the next), in ms. */
  graceMs: number;
  setTimer: (run: () => void, ms: number) => unknown;
  clearTimer: (timer: unknown) => void;
}

type Picture = { state: "pending" } | { state: "ready"; url: string; decoded: unknown };

interface Entry {
  holders: number;
  release: unknown;
  controller: AbortController;
  pictures: Map<string, Picture>;
  shown: Set<string>;
}

/** What an image of a case can show from memory: its address, `null` while it is still arriving, else undefined. */
export type HeldPicture = string | null | undefined;

export class ImageMemory {
  private readonly entries = new Map<string, Entry>();
  private readonly listeners = new Set<() => void>();

  constructor(private readonly deps: ImageMemoryDeps) {}

  /** Keeps a case's pictures in memory until the returned release (and the grace period after it). */
  hold(publicId: string): () => void {
    let entry = this.entries.get(publicId);
    if (!entry) {
      entry = { holders: 0, release: undefined, controller: new AbortController(), pictures: new Map(), shown: new Set() };
      this.entries.set(publicId, entry);
    }
    entry.holders += 1;
    if (entry.release !== undefined) {
      this.deps.clearTimer(entry.release);
      entry.release = undefined;
    }
    const held = entry;
    let released = false;
    return () => {
      if (released) return;
      released = true;
      held.holders -= 1;
      if (held.holders > 0) return;
      held.release = this.deps.setTimer(() => {
        held.release = undefined;
        if (held.holders === 0 && this.entries.get(publicId) === held) this.drop(publicId, held);
      }, this.deps.graceMs);
    };
  }

  /**
   * Fetches and decodes one picture of a held case, once (a picture already here or arriving is left alone).
   * Nothing happens for a case nobody holds. A refused or failed read leaves no trace: the page then loads the
   * picture through its token, as without a read ahead.
   */
  async warm(publicId: string, key: string, src: string): Promise<void> {
    const entry = this.entries.get(publicId);
    if (!entry || entry.pictures.has(key)) return;
    entry.pictures.set(key, { state: "pending" });
    this.notify();
    let url: string | undefined;
    try {
      const blob = await this.deps.fetchBytes(src, entry.controller.signal);
      if (!this.alive(publicId, entry)) return;
      url = this.deps.createUrl(blob);
      const decoded = await this.deps.decode(url);
      if (!this.alive(publicId, entry)) {
        this.deps.revokeUrl(url);
        return;
      }
      entry.pictures.set(key, { state: "ready", url, decoded });
    } catch {
      if (url !== undefined) this.deps.revokeUrl(url);
      if (this.alive(publicId, entry)) entry.pictures.delete(key);
    }
    this.notify();
  }

  /** The picture to show: its in-memory address, `null` while it is arriving, undefined when there is none. */
  pictureOf(publicId: string, key: string): HeldPicture {
    const picture = this.entries.get(publicId)?.pictures.get(key);
    if (!picture) return undefined;
    return picture.state === "ready" ? picture.url : null;
  }

  /** A picture that failed to show from memory is let go: the page falls back to its token. */
  forget(publicId: string, key: string): void {
    const entry = this.entries.get(publicId);
    const picture = entry?.pictures.get(key);
    if (!entry || !picture) return;
    if (picture.state === "ready") this.deps.revokeUrl(picture.url);
    entry.pictures.delete(key);
    this.notify();
  }

  /** True the first time a held picture is shown (the caller reports it), false after. */
  firstShown(publicId: string, key: string): boolean {
    const entry = this.entries.get(publicId);
    if (!entry || entry.pictures.get(key)?.state !== "ready" || entry.shown.has(key)) return false;
    entry.shown.add(key);
    return true;
  }

  /** For useSyncExternalStore: called whenever a picture arrives, fails or is let go. */
  subscribe = (listener: () => void): (() => void) => {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  };

  /** The cases held right now (for tests and the browser test's probe of what stays in memory). */
  heldCases(): string[] {
    return [...this.entries.keys()];
  }

  private alive(publicId: string, entry: Entry): boolean {
    return this.entries.get(publicId) === entry && !entry.controller.signal.aborted;
  }

  private drop(publicId: string, entry: Entry): void {
    this.entries.delete(publicId);
    entry.controller.abort();
    for (const picture of entry.pictures.values()) if (picture.state === "ready") this.deps.revokeUrl(picture.url);
    entry.pictures.clear();
    this.notify();
  }

  private notify(): void {
    for (const listener of this.listeners) listener();
  }
}

/**
 * Reports the pictures shown from memory, one request per case for those shown together (the face comparison's
 * two, the document's back a moment later may make a second). `send` is the request; a failed report is tried
 * once more.
 */
export class ShownReporter {
  private readonly pending = new Map<string, Set<string>>();
  private scheduled = false;

  constructor(
    private readonly send: (publicId: string, files: string[]) => Promise<unknown>,
    private readonly schedule: (run: () => void) => void = (run) => void setTimeout(run, 0),
  ) {}

  report(publicId: string, key: string): void {
    const files = this.pending.get(publicId) ?? new Set<string>();
    files.add(key);
    this.pending.set(publicId, files);
    if (this.scheduled) return;
    this.scheduled = true;
    this.schedule(() => this.flush());
  }

  private flush(): void {
    this.scheduled = false;
    const batch = [...this.pending.entries()];
    this.pending.clear();
    for (const [publicId, files] of batch) {
      const list = [...files].sort();
      void this.send(publicId, list).catch(() => this.send(publicId, list).catch(() => undefined));
    }
  }
}
