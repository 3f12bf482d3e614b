/**
 * Keeps several records' cataloguing under way at once. One at a time, the import waited on a
 * document worker for every page (its thread idle three quarters of the time) and used one worker
 * of the pool; with records in flight the pool's workers and the reading thread overlap. Records of
 * one URL are taken in file order (the second waits for the first), and the window is bounded in
 * records and in bytes, so memory does not grow with the file: a record bigger than the byte bound
 * is taken alone.
 */
export class RecordWindow {
  private readonly running = new Map<Promise<void>, string | null>();
  private bytes = 0;
  private failure: { error: unknown } | null = null;

  constructor(
    private readonly maxRecords: number,
    private readonly maxBytes: number,
  ) {}

  /**
   * Starts `task` once there is room for it and no task of the same `key` runs (a null key waits
   * for none); resolves when it has started. A task's failure is thrown by a later add or drain.
   */
  async add(key: string | null, bytes: number, task: () => Promise<void>): Promise<void> {
    while (this.running.size > 0 && (this.running.size >= this.maxRecords || this.bytes + bytes > this.maxBytes || this.holds(key))) {
      await Promise.race(this.running.keys());
    }
    this.check();
    this.bytes += bytes;
    const p: Promise<void> = task()
      .catch((error: unknown) => {
        this.failure ??= { error };
      })
      .finally(() => {
        this.running.delete(p);
        this.bytes -= bytes;
      });
    this.running.set(p, key);
  }

  /** Waits for every task started; throws the first failure. */
  async drain(): Promise<void> {
    while (this.running.size > 0) await Promise.all(this.running.keys());
    this.check();
  }

  private holds(key: string | null): boolean {
    if (key === null) return false;
    return [...this.running.values()].includes(key);
  }

  private check(): void {
    if (this.failure !== null) throw this.failure.error;
  }
}
