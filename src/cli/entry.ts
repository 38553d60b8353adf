import { main } from "./main.js";

// Output piped into a reader that stops early (`report ... | head`): end quietly, as other tools do.
for (const stream of [process.stdout, process.stderr]) {
  stream.on("error", (error: NodeJS.ErrnoException) => {
    if (error.code === "EPIPE") process.exit(0);
    throw error;
  });
}

await main(process.argv);
