"use client";

// The dashboard's error view (retry button, no details): a failure here leaves the shell usable.
export { default } from "@/app/(dashboard)/error";
