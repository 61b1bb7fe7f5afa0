export interface WriteBehindOptions {
  /** Most items in one transaction (default 4096); a larger backlog is written in several. */
  readonly maxBatch?: number;
  /**
   * Most items waiting for a transaction (default 65 536). A save that would pass it waits for
   * room first, so a store slower than its producers slows them down instead of growing memory.
   */
  readonly maxPending?: number;
}

/**
 * Write-behind saving: the items of saves made while a transaction runs (or within the same turn
 * of the event loop) are written together in the next one, so the store costs one transaction
 * per batch, not per save. `save` resolves once the transaction holding its items has committed:
 * a caller that acknowledges only then loses nothing it acknowledged in a crash. A failed
 * transaction rejects every save in it, and the next one goes on.
 */
export interface WriteBehind<T> {
  save(items: readonly T[]): Promise<void>;
  /** Waits until everything saved so far is committed (shutdown). */
  flush(): Promise<void>;
}

interface Pending<T> {
  readonly items: readonly T[];
  readonly resolve: () => void;
  readonly reject: (error: unknown) => void;
}

export function createWriteBehind<T>(
  saveBatch: (items: readonly T[]) => Promise<void>,
  options: WriteBehindOptions = {},
): WriteBehind<T> {
  const maxBatch = options.maxBatch ?? 4096;
  const maxPending = options.maxPending ?? 65_536;
  const queue: Pending<T>[] = [];
  let queued = 0;
  let writing: Promise<void> | undefined;
  const roomWaiters: (() => void)[] = [];

  const take = (): Pending<T>[] => {
    const batch: Pending<T>[] = [];
    let size = 0;
    // One save's items stay in one transaction even when they alone exceed maxBatch.
    while (
      queue.length > 0 &&
      (batch.length === 0 || size + (queue[0] as Pending<T>).items.length <= maxBatch)
    ) {
      const next = queue.shift() as Pending<T>;
      batch.push(next);
      size += next.items.length;
    }
    queued -= size;
    while (roomWaiters.length > 0 && queued < maxPending) roomWaiters.shift()?.();
    return batch;
  };

  const writeAll = async () => {
    // Yield once so the saves made in this turn of the event loop join the first batch.
    await new Promise<void>((resolve) => setImmediate(resolve));
    while (queue.length > 0) {
      const batch = take();
      try {
        await saveBatch(batch.length === 1 ? (batch[0] as Pending<T>).items : batch.flatMap((p) => p.items));
        for (const p of batch) p.resolve();
      } catch (error) {
        for (const p of batch) p.reject(error);
      }
    }
  };

  const start = () => {
    writing ??= writeAll().finally(() => {
      writing = undefined;
      if (queue.length > 0) start();
    });
  };

  return {
    async save(items) {
      if (items.length === 0) return;
      while (queued > 0 && queued + items.length > maxPending) {
        await new Promise<void>((resolve) => roomWaiters.push(resolve));
      }
      const done = new Promise<void>((resolve, reject) => {
        queue.push({ items, resolve, reject });
      });
      queued += items.length;
      start();
      return done;
    },
    async flush() {
      while (writing) await writing;
    },
  };
}
