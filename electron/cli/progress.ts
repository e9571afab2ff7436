/** A one-line progress bar on standard error, redrawn in place; nothing when it is off. */
export class ProgressBar {
  private drawn = false;
  private readonly started = Date.now();

  constructor(
    private readonly out: NodeJS.WritableStream,
    private readonly enabled: boolean,
    private readonly label: string,
  ) {}

  update(done: number, total: number): void {
    if (!this.enabled) return;
    const width = 30;
    const fraction = total > 0 ? Math.min(1, done / total) : 0;
    const filled = Math.round(fraction * width);
    const elapsed = Math.round((Date.now() - this.started) / 1000);
    const bar = `${'#'.repeat(filled)}${'-'.repeat(width - filled)}`;
    this.out.write(`\r${this.label} [${bar}] ${String(Math.floor(fraction * 100)).padStart(3)}% ${done}/${total} chunks ${elapsed}s`);
    this.drawn = true;
  }

  /** Ends the line, so that what follows starts on its own. */
  end(): void {
    if (this.drawn) this.out.write('\n');
    this.drawn = false;
  }
}
