#!/usr/bin/env node
// Entry point: the compiled CLI lives in dist/ (built by `npm ci` / `npm run build`).
import("../dist/cli/main.js").then((m) => m.main(process.argv)).catch((error) => {
  if (error && error.code === "ERR_MODULE_NOT_FOUND" && String(error.message).includes("dist/cli/main.js")) {
    console.error("spatialprobe is not built yet: run `npm run build` (npm ci does it automatically).");
    process.exit(2);
  }
  throw error;
});
