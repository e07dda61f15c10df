// A progress bar on a terminal; periodic plain lines otherwise (CI logs stay readable).
import cliProgress from "cli-progress";

export interface Progress {
  update(done: number, total: number): void;
  stop(): void;
}

export function createProgress(label: string): Progress {
  if (process.stderr.isTTY) {
    const bar = new cliProgress.SingleBar(
      { format: `${label} [{bar}] {percentage}% {value}/{total} eta {eta_formatted}`, stream: process.stderr, hideCursor: true },
      cliProgress.Presets.shades_classic,
    );
    let started = false;
    return {
      update(done, total) {
        if (!started) {
          bar.start(total, 0);
          started = true;
        }
        bar.update(done);
      },
      stop: () => started && bar.stop(),
    };
  }
  let lastPct = -1;
  return {
    update(done, total) {
      const pct = total > 0 ? Math.floor((done / total) * 10) * 10 : 0;
      if (pct !== lastPct) {
        lastPct = pct;
        process.stderr.write(`${label}: ${done}/${total} (${pct}%)\n`);
      }
    },
    stop() {},
  };
}
