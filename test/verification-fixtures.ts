import type { Verification } from "@/lib/upstream/model/verification";

/**
 * A verification as the dashboard models it (lib/upstream/model/verification.ts), of a person whose document is
 * read unmasked: the document's data that the record comparison sets beside the person's records. Tests change what
 * they are about with `patch`.
 */
export function verificationFixture(patch: Partial<Verification> = {}): Verification {
  return {
    publicId: "ver_1",
    document: "529.982.247-25",
    documentMasked: false,
    status: "review",
    steps: [],
    identityScore: null,
    riskScore: null,
    pepOrigin: null,
    restrictiveLists: [],
    person: { name: "Mariana Luíza Costa Ribeiro", motherName: "Helena Almeida Costa", birthDate: "1988-04-17", pep: false },
    extra: {},
    ...patch,
  };
}
