/**
 * Progress on stderr: done/total, errors, rate and ETA. On a terminal the line is redrawn in
 * place; otherwise (CI, pipes) a line is printed every few seconds and at the end.
 */
export class Progress {
  private done = 0;
  private errors = 0;
  private cached = 0;
  private started = Date.now();
  private lastPrint = 0;
  private readonly tty: boolean;

  constructor(
    private readonly label: string,
    private readonly total: number,
    private readonly stream: NodeJS.WriteStream = process.stderr,
    private readonly quiet = false,
  ) {
    this.tty = Boolean(stream.isTTY);
  }

  tick(outcome: { error?: boolean; cached?: boolean } = {}): void {
    this.done++;
    if (outcome.error) this.errors++;
    if (outcome.cached) this.cached++;
    this.print(false);
  }

  finish(): void {
    this.print(true);
  }

  line(): string {
    const seconds = (Date.now() - this.started) / 1000;
    const fresh = this.done - this.cached;
    const rate = seconds > 0 ? fresh / seconds : 0;
    const remaining = this.total - this.done;
    const eta = remaining === 0 ? "0s" : rate > 0 ? formatDuration(remaining / rate) : "–";
    return `[${this.label}] ${this.done}/${this.total} done · ${this.errors} errors · ${this.cached} reused · ${rate.toFixed(1)}/s · ETA ${eta}`;
  }

  private print(final: boolean): void {
    if (this.quiet) return;
    const now = Date.now();
    const interval = this.tty ? 100 : 5000;
    if (!final && now - this.lastPrint < interval) return;
    this.lastPrint = now;
    if (this.tty) this.stream.write(`\r${this.line()}\x1b[K${final ? "\n" : ""}`);
    else this.stream.write(`${this.line()}\n`);
  }
}

function formatDuration(seconds: number): string {
  if (!Number.isFinite(seconds)) return "–";
  const s = Math.round(seconds);
  if (s < 60) return `${s}s`;
  if (s < 3600) return `${Math.floor(s / 60)}m${String(s % 60).padStart(2, "0")}s`;
  return `${Math.floor(s / 3600)}h${String(Math.floor((s % 3600) / 60)).padStart(2, "0")}m`;
}
