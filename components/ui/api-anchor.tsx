"use client";

import type { AnchorHTMLAttributes } from "react";

import { apiInConnection } from "@/lib/shared/connection-path";

import { useAddressConnection } from "./app-link";

/**
 * A plain link to an API address (a download) that names the page's connection, as the API client does for every
 * call: under /c/production/ the file is production's, never the member's default connection's.
 */
export function ApiAnchor({ href, ...props }: AnchorHTMLAttributes<HTMLAnchorElement> & { href: string }) {
  return <a href={apiInConnection(href, useAddressConnection())} {...props} />;
}
