// Shared (no server imports): what POST /api/search answers.

export interface SearchHit {
  publicId: string;
  refId: string | null;
  documentMasked: string | null;
  caseStatus: "open" | "closed" | null;
}

export interface SearchResponse {
  hits: SearchHit[];
}
