"use client";

// A render failure of the detail segment: the same message and retry as the list's.
export { default } from "@/app/(dashboard)/verifications/error";
