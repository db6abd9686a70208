import "server-only";

import { z } from "zod";

import { config, type Config } from "@/lib/config";
import { accountClient, type UpstreamAccount } from "@/lib/upstream/account";
import {
  createdVerificationWire,
  reshapeCreatedVerification,
  reshapePagination,
  reshapeVerification,
  verificationFilesWire,
  verificationFileWire,
  verificationListWire,
  verificationWire,
  type VerificationFileWire,
} from "@/lib/upstream/core-validation";
import { HttpClient, pathSegment, type HttpClientOptions } from "@/lib/upstream/http";
import type { CreatedVerification, Verification, VerificationList } from "@/lib/upstream/model/verification";
// The public-id rule is the dashboard's one definition: the route, the page and this client check the same.
import {
  FILTER_KEYS,
  filterParam,
  PUBLIC_ID_PATTERN,
  VERIFICATION_FILTERS,
  type FilterDefinition,
  type FilterKey,
  type FilterKind,
} from "@/lib/upstream/model/verification-query";

/*
 * Client of the core API ({core_url}): verifications. Every call carries X-API-Key. Read routes refuse
 * any unknown query parameter (400), so the list call builds its query from an explicit allow-list, and
 * creation builds its body from one too: `integration_origin_public_id` was removed from the API and
 * sending it is a 400, so it can never be sent from here.
 */

export interface CoreClientOptions extends HttpClientOptions {
  apiKey: string;
  /** ASSUMPTION (docs/assumptions.md#core-page-param): name of the page query parameter (CORE_PAGE_PARAM). */
  pageParam?: string;
  /** ASSUMPTION (docs/assumptions.md#core-max-per-page): the contract shows no maximum page size (CORE_MAX_PER_PAGE). */
  maxPerPage?: number;
}

// Filter values are free tokens: the contract shows `approved`, `review` for status and no values for
// flow and journey. Commas are refused in a status value because the list is comma-joined.
const filterToken = z.string().regex(/^[A-Za-z0-9_.:-]{1,64}$/, "must be a single word (letters, digits, _ . : -)");
// ASSUMPTION (docs/assumptions.md#core-date-filter): from/to are a calendar date or an ISO 8601 instant
// (CORE_DATE_FILTER_FORMAT).
const dateFilter = z.union([z.iso.date(), z.iso.datetime({ offset: true })], { error: "must be YYYY-MM-DD or an ISO 8601 date-time" });

// What the client accepts for each kind of filter (lib/upstream/model/verification-query.ts): looser than the
// dashboard's own checks (any status word, date-times too) but never a value that could bend the query.
const UPSTREAM_VALUE: Record<FilterKind, (maxPerPage: number, capped: boolean) => z.ZodType> = {
  statuses: () => z.union([filterToken, z.array(filterToken).max(20)]),
  token: () => filterToken,
  date: () => dateFilter,
  count: (maxPerPage, capped) => (capped ? z.int().min(1).max(maxPerPage) : z.int().min(1)),
};

function listFiltersSchema(maxPerPage: number) {
  const shape = Object.fromEntries(
    FILTER_KEYS.map((key) => {
      const definition: FilterDefinition = VERIFICATION_FILTERS[key];
      return [key, UPSTREAM_VALUE[definition.kind](maxPerPage, definition.capped ?? false).optional()];
    }),
  );
  // Strict: a key this client does not know is refused (a ZodError naming it, answered 400 by the route
  // kit), never silently dropped, so a filter cannot vanish unseen.
  return z.object(shape).strict();
}

type UpstreamValue<K extends FilterKind> = K extends "statuses" ? string | string[] : K extends "count" ? number : string;

/** The list call's query under the dashboard's filter names; each goes out under its `wire` name. */
export type UpstreamListQuery = { [K in FilterKey]?: UpstreamValue<(typeof VERIFICATION_FILTERS)[K]["kind"]> };

export const createVerificationInputSchema = z.object({
  schemaVersion: z.string().min(1).max(64),
  refId: z.string().min(1).max(256),
  document: z.object({
    type: z.string().min(1).max(64),
    number: z.string().min(1).max(64),
  }),
  /**
   * The flow to open. Sent as `flow_public_id`, the name every creation example of the provider uses
   * (Legitimuz-Tech/legitimuz-examples pocs/express-backend/server.ts at 7780eac, pocs/resume-expiry and
   * pocs/next-checkout at dec4b2c);
   * left out, the integration's default flow applies (ASSUMPTION (docs/assumptions.md#creation-flow)). An id like
   * a verification's (letters, digits, _ or -): it goes into a body, not a path, but nothing else has a reason to.
   */
  flowPublicId: z.string().regex(PUBLIC_ID_PATTERN, "must be a flow id (letters, digits, _ or -)").optional(),
});
export type CreateVerificationInput = z.infer<typeof createVerificationInputSchema>;

/** A signed file. Server-side only: `url` opens the image and must never reach a browser, log or cache. */
export interface SignedVerificationFile {
  url: string;
  /** When the signed URL stops working, computed from `expires_in` when the answer arrived. */
  expiresAt: Date;
  publicId: string;
  /** Media type, e.g. image/png. */
  type: string;
}

export interface VerificationFileEntry {
  /** `selfie`, `document_back`, or another key (the document-front key is not named in the contract). */
  key: string;
  /** null when the upstream has no such file (e.g. liveness not approved: no selfie). */
  file: SignedVerificationFile | null;
}

const ROUTES = {
  list: "/public/validations-persons",
  one: "/public/validations-persons/{public_id}",
  files: "/public/validations-persons/{public_id}/files",
  create: "/public/verifications",
} as const;

// Known keys first, in the order the UI shows them; unknown keys follow alphabetically.
const FILE_KEY_ORDER = ["selfie", "document_front", "document_back"];

export class CoreClient extends HttpClient {
  private readonly apiKey: string;
  private readonly pageParam: string;
  private readonly filtersSchema: ReturnType<typeof listFiltersSchema>;

  constructor(options: CoreClientOptions) {
    super("core", options, [options.apiKey]);
    this.apiKey = options.apiKey;
    this.pageParam = options.pageParam ?? "page";
    this.filtersSchema = listFiltersSchema(options.maxPerPage ?? 100);
  }

  static fromConfig(cfg: Config = config(), account?: UpstreamAccount): CoreClient {
    return new CoreClient({
      baseUrl: cfg.core.url,
      apiKey: account?.coreApiKey ?? cfg.core.apiKey,
      pageParam: cfg.core.pageParam,
      maxPerPage: cfg.core.maxPerPage,
      timeoutMs: cfg.upstream.timeoutMs,
      readRetries: cfg.upstream.readRetries,
      readDeadlineMs: cfg.upstream.readDeadlineMs,
    });
  }

  private get headers(): Record<string, string> {
    return { "X-API-Key": this.apiKey };
  }

  /** GET /public/validations-persons: the most recent verification of each person. Throws ZodError on bad or unknown filters. */
  async listVerifications(filters: UpstreamListQuery = {}, signal?: AbortSignal): Promise<VerificationList> {
    const input = this.filtersSchema.parse(filters) as UpstreamListQuery;
    // Only the defined filters ever leave, under their wire names: the upstream answers any other with 400.
    const query: Record<string, string | undefined> = {};
    for (const key of FILTER_KEYS) {
      const value = input[key];
      const name = key === "page" ? this.pageParam : VERIFICATION_FILTERS[key].wire;
      query[name] = value === undefined ? undefined : filterParam(value);
    }
    const { data } = await this.request({
      method: "GET",
      operation: "list_verifications",
      route: ROUTES.list,
      path: ROUTES.list,
      query,
      headers: this.headers,
      schema: verificationListWire,
      forbiddenMeansIpNotAllowed: true,
      signal,
    });
    return { items: data.data.map(reshapeVerification), pagination: reshapePagination(data.pagination) };
  }

  /** GET /public/validations-persons/{public_id}. 404 (not found, or another integration's or environment's). */
  async getVerification(publicId: string, signal?: AbortSignal): Promise<Verification> {
    const id = parsePublicId(publicId);
    const { data } = await this.request({
      method: "GET",
      operation: "get_verification",
      route: ROUTES.one,
      path: `/public/validations-persons/${pathSegment(id)}`,
      headers: this.headers,
      schema: verificationWire,
      forbiddenMeansIpNotAllowed: true,
      signal,
    });
    return reshapeVerification(data);
  }

  /**
   * GET /public/validations-persons/{public_id}/files: signed URLs of the images, valid 300 s, one file
   * each. Biometric data: neither the URLs nor the answer are logged (the base client logs only the route).
   */
  async getVerificationFiles(publicId: string, signal?: AbortSignal): Promise<VerificationFileEntry[]> {
    const id = parsePublicId(publicId);
    const { data, receivedAt } = await this.request({
      method: "GET",
      operation: "get_verification_files",
      route: ROUTES.files,
      path: `/public/validations-persons/${pathSegment(id)}/files`,
      headers: this.headers,
      schema: verificationFilesWire,
      forbiddenMeansIpNotAllowed: true,
      signal,
    });
    return reshapeFiles(data, receivedAt);
  }

  /** POST /public/verifications. Never retried (a retry could create a second verification). */
  async createVerification(input: CreateVerificationInput, signal?: AbortSignal): Promise<CreatedVerification> {
    return (await this.createVerificationWithEntry(input, signal)).created;
  }

  /**
   * The same creation, with the entry's address (`entry.url`) beside the domain object for the one caller that
   * hands it to the analyst (a case's re-verification: address and QR). The address is the flow's credential:
   * never stored, logged or audited, and never part of `CreatedVerification`.
   */
  async createVerificationWithEntry(
    input: CreateVerificationInput,
    signal?: AbortSignal,
  ): Promise<{ created: CreatedVerification; entryUrl: string | null }> {
    const valid = createVerificationInputSchema.parse(input);
    // Built field by field: nothing the caller adds (integration_origin_public_id above all) can slip in.
    const body = {
      schema_version: valid.schemaVersion,
      ref_id: valid.refId,
      document: { type: valid.document.type, number: valid.document.number },
      ...(valid.flowPublicId ? { flow_public_id: valid.flowPublicId } : {}),
    };
    const { data, status } = await this.request({
      method: "POST",
      operation: "create_verification",
      route: ROUTES.create,
      path: ROUTES.create,
      json: body,
      headers: this.headers,
      schema: createdVerificationWire,
      bodyOptional: true,
      signal,
    });
    // api/verifications.mdx: a repeat with the same ref_id and body answers 200 with the existing verification
    // (201 is a new one); the same ref_id with another body is a 409, which the caller turns into a plain message.
    // The examples' `entry.url`, else the documentation's `sdkUrl` (api/verifications.mdx): the same credential.
    const entryUrl = data?.entry?.url ?? data?.sdkUrl;
    return {
      created: reshapeCreatedVerification(data, status === 200),
      entryUrl: typeof entryUrl === "string" && /^https?:\/\//.test(entryUrl) ? entryUrl : null,
    };
  }
}

/** Validates a public id before it enters a path; throws a ZodError naming `publicId`. */
function parsePublicId(publicId: string): string {
  return z
    .object({ publicId: z.string().regex(PUBLIC_ID_PATTERN, "must be a verification id (letters, digits, _ or -)") })
    .parse({ publicId }).publicId;
}

function reshapeFile(raw: VerificationFileWire, receivedAt: number): SignedVerificationFile {
  return {
    url: raw.url,
    expiresAt: new Date(receivedAt + raw.expires_in * 1000),
    publicId: raw.file.public_id,
    type: raw.file.type,
  };
}

function reshapeFiles(raw: Record<string, unknown>, receivedAt: number): VerificationFileEntry[] {
  const entries: VerificationFileEntry[] = [];
  for (const [key, value] of Object.entries(raw)) {
    if (value === null || value === undefined) {
      entries.push({ key, file: null });
      continue;
    }
    // Unknown keys count only when they are file-shaped; anything else is not an image to show.
    const file = verificationFileWire.safeParse(value);
    if (file.success) entries.push({ key, file: reshapeFile(file.data, receivedAt) });
  }
  for (const key of ["selfie", "document_back"]) {
    if (!entries.some((entry) => entry.key === key)) entries.push({ key, file: null });
  }
  const rank = (key: string) => {
    const index = FILE_KEY_ORDER.indexOf(key);
    return index === -1 ? FILE_KEY_ORDER.length : index;
  };
  return entries.sort((a, b) => rank(a.key) - rank(b.key) || a.key.localeCompare(b.key));
}

/** The core client of the account the work in progress speaks as (lib/upstream/account.ts). */
export const coreClient = accountClient((cfg, account) => CoreClient.fromConfig(cfg, account));
