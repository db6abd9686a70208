/* The log of requests received, for GET /sandbox/requests: method, path and query keys only. */

export interface LoggedRequest {
  /** Position in the log since start, never reused (a reader's cursor: `GET /sandbox/requests?after=`). */
  seq: number;
  method: string;
  path: string;
  /** Names of the query parameters only: values are never kept. */
  query: string[];
  at: string;
}

export class RequestLog {
  static readonly LIMIT = 5000;
  private entries: LoggedRequest[] = [];
  private last = 0;
  add(entry: Omit<LoggedRequest, "seq">): void {
    this.last += 1;
    this.entries.push({ seq: this.last, ...entry });
    if (this.entries.length > RequestLog.LIMIT) this.entries.splice(0, this.entries.length - RequestLog.LIMIT);
  }
  all(): LoggedRequest[] {
    return [...this.entries];
  }
  /** The entries after `seq`, the newest seq, and whether entries after `seq` were already dropped. */
  since(seq: number): { requests: LoggedRequest[]; last: number; truncated: boolean } {
    const requests = this.entries.filter((entry) => entry.seq > seq);
    return { requests, last: this.last, truncated: seq < this.last && (requests[0]?.seq ?? this.last + 1) > seq + 1 };
  }
  clear(): void {
    this.entries = [];
  }
}
