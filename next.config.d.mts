// Types of next.config.mjs, for the tests that read it (next.config.test.ts).
import type { NextConfig } from "next";

declare const nextConfig: NextConfig;
export default nextConfig;
