import { SingleBar } from 'cli-progress';

/** Training progress on stderr: a bar on a terminal, a plain line every ten seconds otherwise. */
export function labProgress(
  label: string,
  enabled: boolean,
): { update(done: number, total: number): void; stop(): void } {
  if (!enabled) return { update: () => {}, stop: () => {} };
  if (process.stderr.isTTY) {
    const bar = new SingleBar({
      stream: process.stderr,
      format: ` ${label} [{bar}] {percentage}% | {value}/{total} steps | eta {eta_formatted}`,
      hideCursor: true,
    });
    let started = false;
    return {
      update: (done, total) => {
        if (!started) bar.start(total, 0);
        started = true;
        bar.update(done);
      },
      stop: () => started && bar.stop(),
    };
  }
  let last = performance.now();
  let printed = -1;
  return {
    update: (done, total) => {
      if (done === printed || (performance.now() - last < 10_000 && done < total)) return;
      last = performance.now();
      printed = done;
      process.stderr.write(`rewardkit lab ${label}: ${done}/${total} steps\n`);
    },
    stop: () => {},
  };
}
