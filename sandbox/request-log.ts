/* The log of requests received, for GET /sandbox/requests: method, path and query keys only. */

export interface LoggedRequest {
  method: string;
  path: string;
  /** Names of the query parameters only: values are never kept. */
  query: string[];
  at: string;
}

export class RequestLog {
  static readonly LIMIT = 5000;
  private entries: LoggedRequest[] = [];
  add(entry: LoggedRequest): void {
    this.entries.push(entry);
    if (this.entries.length > RequestLog.LIMIT) this.entries.splice(0, this.entries.length - RequestLog.LIMIT);
  }
  all(): LoggedRequest[] {
    return [...this.entries];
  }
  clear(): void {
    this.entries = [];
  }
}
