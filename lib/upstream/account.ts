import "server-only";

import { AsyncLocalStorage } from "node:async_hooks";

import { config, type Config } from "@/lib/config";
import { registerConfigSecrets, registerSecrets } from "@/lib/log";
import { PRIMARY_CONNECTION } from "@/lib/shared/connection-path";

/*
 * The service account a piece of work speaks as: one connection's core key and, where the partners API is used,
 * its partners account (lib/connections). The connections layer binds it for a request (the route kit, a page) or a
 * job's run with `withAccount`; the clients (`coreClient()`, `partnersClient()`) build one client per account and
 * version and hand out the bound account's. Work that binds none speaks as the default account, the connection
 * `primary` once the connections layer has read it (`setDefaultAccount`), and before that the start-up variables,
 * which seed that connection: so an existing deployment behaves as it did with its variables alone.
 */

export interface PartnersAccount {
  username: string;
  password: string;
  domain: string;
  integrationToken: string;
  widgetIntegrationToken?: string;
}

export interface UpstreamAccount {
  /** The connection's id; `version` changes with every change of a secret, so a rotated key builds a new client. */
  id: string;
  version: number;
  coreApiKey: string;
  /** Null: this connection does not use the partners API (its operations answer "not configured"). */
  partners: PartnersAccount | null;
}

// On globalThis: Next evaluates instrumentation.ts (the jobs) and each route's bundle separately, and all of them must
// bind and default to the same accounts.
const slot = globalThis as typeof globalThis & {
  __kycAccounts?: { bound: AsyncLocalStorage<UpstreamAccount>; fallback?: UpstreamAccount };
};
const accounts = (slot.__kycAccounts ??= { bound: new AsyncLocalStorage<UpstreamAccount>() });
const bound = accounts.bound;

/** Runs `work` speaking as `account`: every client asked for inside it is that account's. */
export function withAccount<T>(account: UpstreamAccount, work: () => T): T {
  registerSecrets(account.coreApiKey, account.partners?.password, account.partners?.integrationToken);
  return bound.run(account, work);
}

/** The account work that binds none speaks as (the connections layer sets it to `primary`'s once it has read it). */
export function setDefaultAccount(account: UpstreamAccount): void {
  registerSecrets(account.coreApiKey, account.partners?.password, account.partners?.integrationToken);
  accounts.fallback = account;
}

/** The account of the work in progress, or undefined when it speaks as the start-up variables. */
function currentAccount(): UpstreamAccount | undefined {
  return bound.getStore() ?? accounts.fallback;
}

/** The connection the work in progress speaks as (undefined: the start-up variables), for what must remember it (a media token). */
export function currentAccountId(): string | undefined {
  return currentAccount()?.id;
}

/**
 * The connection the records written by the work in progress belong to (a case, an event, an index entry): the
 * connection whose key read what they say. `primary` before the connections were read (the variables seed it).
 */
export function currentConnectionId(): string {
  return currentAccount()?.id ?? PRIMARY_CONNECTION;
}

/** The core key the work in progress speaks with (the bound or default account's, else the start-up variables'). */
export function currentCoreApiKey(cfg: Config = config()): string {
  return currentAccount()?.coreApiKey ?? cfg.core.apiKey;
}

/** The connection the work in progress was bound to (a request's, a job's run), or undefined: none named one. */
export function boundConnectionId(): string | undefined {
  return bound.getStore()?.id;
}

/** The account the start-up variables describe: the seed of the connection `primary`. */
export function accountOfConfig(cfg: Config = config()): Omit<UpstreamAccount, "id" | "version"> {
  const { username, password, domain, integrationToken, widgetIntegrationToken } = cfg.partners;
  return {
    coreApiKey: cfg.core.apiKey,
    partners: { username, password, domain, integrationToken, ...(widgetIntegrationToken ? { widgetIntegrationToken } : {}) },
  };
}

/**
 * A client per account: `build` makes one from the configuration and an account (undefined: the start-up
 * variables'). Clients keep state (the partners login, its renewals), so each account and version has one, kept
 * while it is in use; a rotated key's version builds a new one and the old is dropped. Clients are built from the
 * configuration in force: a new one (read again, as a test that restarts the service does) drops every client.
 */
export function accountClient<T>(build: (cfg: Config, account: UpstreamAccount | undefined) => T): () => T {
  let builtFrom: Config | undefined;
  let ofConfig: T | undefined;
  const perAccount = new Map<string, { version: number; client: T }>();
  return () => {
    const cfg = config();
    if (cfg !== builtFrom) {
      builtFrom = cfg;
      ofConfig = undefined;
      perAccount.clear();
    }
    const account = currentAccount();
    if (!account) {
      if (ofConfig === undefined) {
        registerConfigSecrets(cfg);
        ofConfig = build(cfg, undefined);
      }
      return ofConfig;
    }
    const known = perAccount.get(account.id);
    if (known?.version === account.version) return known.client;
    registerConfigSecrets(cfg);
    const client = build(cfg, account);
    perAccount.set(account.id, { version: account.version, client });
    return client;
  };
}
