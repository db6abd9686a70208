import { NextResponse } from "next/server";

// GET /api/health – liveness: the process answers. Readiness checks join as their dependencies land.
export const dynamic = "force-dynamic";

export async function GET() {
  return NextResponse.json({ status: "ok" }, { headers: { "Cache-Control": "no-store" } });
}
