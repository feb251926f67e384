/**
 * Errors writing the process's own output (EPIPE once whoever read it, a pipe
 * to `head` or a supervisor that died, has closed it) are dropped: there is
 * nowhere to report them. Unhandled, each became an uncaught exception that
 * Next's handler wrote to stderr, whose failure raised the next one: a server
 * spinning at full CPU that never finished shutting down.
 */
export function dropOutputErrors(): void {
  for (const stream of [process.stdout, process.stderr]) stream.on("error", () => {});
}
