/**
 * One line for an error that ends a command, instead of a stack trace: the system errors a user
 * can act on (a busy port, a missing or unwritable path, a full disk) said in words, anything else
 * by its message. SPATIALPROBE_DEBUG=1 adds the stack, for bug reports.
 */

interface SystemError extends Error {
  code?: string;
  port?: number;
  address?: string;
  path?: string;
  syscall?: string;
}

/** The words for a system error's code, when it is one a user can fix; undefined otherwise. */
export function systemErrorLine(error: SystemError): string | undefined {
  const where = error.path ? ` ${error.path}` : "";
  switch (error.code) {
    case "EADDRINUSE":
      return `port ${error.port ?? "?"} on ${error.address ?? "this machine"} is in use by another program: choose another with --port (0 picks a free one)`;
    case "EADDRNOTAVAIL":
      return `cannot listen on ${error.address ?? "that address"}: it is not an address of this machine (--host)`;
    case "EACCES":
    case "EPERM":
      return error.syscall === "listen" ? `not allowed to listen on port ${error.port ?? "?"} (ports below 1024 need privileges): choose another with --port` : `permission denied:${where}`;
    case "ENOENT":
      return `no such file or folder:${where}`;
    case "ENOTDIR":
      return `not a folder:${where}`;
    case "EISDIR":
      return `a folder where a file was expected:${where}`;
    case "ENOSPC":
      return `the disk is full${where ? ` (writing${where})` : ""}`;
    case "EMFILE":
      return "too many open files: lower --concurrency or raise the limit (ulimit -n)";
    default:
      return undefined;
  }
}

/** The line printed for an unexpected error (exit 1). */
export function unexpectedErrorLine(error: unknown, debug: boolean): string {
  if (!(error instanceof Error)) return `error: ${String(error)}`;
  const known = systemErrorLine(error as SystemError);
  const stack = debug ? `\n${error.stack ?? ""}` : "";
  // A system error a user can act on needs no stack; anything else may be a bug worth reporting with one.
  if (known) return `error: ${known}${stack}`;
  return `error: ${error.message.split("\n")[0]!}${debug ? stack : " (SPATIALPROBE_DEBUG=1 prints the stack trace)"}`;
}
