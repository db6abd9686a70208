// The load of the cluster test: signed-in members' requests sent through nginx without pause, as a team's browsers
// would, each one counted with its status. A request fails when it errs or answers anything but 2xx.

export interface LoadRequest {
  at: number;
  path: string;
  status: number | null;
  error?: string;
}

export interface Load {
  /** Every request answered or failed so far, in the order they ended. */
  requests: LoadRequest[];
  stop(): Promise<void>;
}

/** What a member's browser asks for while they work: the list (an upstream read on the trail), the queue, the bell, a page. */
export const LOAD_PATHS = ["/api/verifications?per_page=5", "/api/cases?queue=open", "/api/notifications", "/cases"];

/**
 * `workers` loops sending the member's requests through `base`, with `headers` (the session cookie, the client's
 * X-Forwarded-For) until stopped.
 */
export function startLoad(base: string, headers: Record<string, string>, workers = 3): Load {
  const requests: LoadRequest[] = [];
  let running = true;
  const worker = async (offset: number) => {
    for (let turn = offset; running; turn += 1) {
      const path = LOAD_PATHS[turn % LOAD_PATHS.length]!;
      const at = Date.now();
      try {
        const response = await fetch(`${base}${path}`, { headers, redirect: "manual" });
        await response.arrayBuffer();
        requests.push({ at, path, status: response.status });
      } catch (error) {
        requests.push({
          at,
          path,
          status: null,
          error: error instanceof Error ? `${error.message} ${String(error.cause ?? "")}` : String(error),
        });
      }
    }
  };
  const done = Promise.all(Array.from({ length: workers }, (_, index) => worker(index)));
  return {
    requests,
    async stop() {
      running = false;
      await done;
    },
  };
}

export const failed = (request: LoadRequest) => request.status === null || request.status < 200 || request.status > 299;
