import type { ViewScope } from "./rules";

/** A saved view as the API answers it. */
export interface SavedView {
  id: string;
  scope: ViewScope;
  name: string;
  query: string;
  createdAt: string;
}
