#!/usr/bin/env node
// Entry point: the compiled CLI lives in dist/ (built by `npm ci` / `npm run build`).
import("../dist/cli/entry.js").catch((error) => {
  if (error && error.code === "ERR_MODULE_NOT_FOUND" && String(error.message).includes("dist/cli/entry.js")) {
    console.error("spatialprobe is not built yet: run `npm run build` (npm ci does it automatically).");
    process.exit(2);
  }
  throw error;
});
