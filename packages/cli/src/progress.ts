import type { IndexProgress } from '@knowing/indexer';
import type { OutputStream } from './io.js';

export interface ProgressReporter {
  readonly onProgress: (event: IndexProgress) => void;
  /** Clear the bar (on a terminal) before anything else is printed. */
  finish(): void;
}

export interface ProgressOptions {
  /** False for --quiet and --json: report nothing. */
  readonly enabled: boolean;
  readonly now?: () => number;
  /** Plain-line mode (not a terminal): at most one line this often. @default 3000 */
  readonly lineIntervalMs?: number;
  /** Terminal mode: redraw at most this often. @default 80 */
  readonly redrawIntervalMs?: number;
}

const BAR_WIDTH = 24;

const PHASE_TEXT: Readonly<Record<IndexProgress['phase'], string>> = {
  discover: 'finding files',
  parse: 'parsing',
  resolve: 'resolving references',
  write: 'writing the graph',
  done: 'done',
};

function bar(done: number, total: number): string {
  const filled = total > 0 ? Math.min(BAR_WIDTH, Math.round((done / total) * BAR_WIDTH)) : 0;
  return `[${'#'.repeat(filled)}${'.'.repeat(BAR_WIDTH - filled)}]`;
}

function describe(event: IndexProgress): string {
  switch (event.phase) {
    case 'discover':
      return event.total > 0 ? `found ${event.total} files` : 'finding files…';
    case 'parse':
      return `${bar(event.done, event.total)} ${event.done}/${event.total} files`;
    case 'write':
      return event.total > 0 ? `${bar(event.done, event.total)} writing ${event.done}/${event.total}` : 'writing the graph…';
    default:
      return `${PHASE_TEXT[event.phase]}…`;
  }
}

/**
 * Index progress on stderr: on a terminal, one line redrawn in place
 * (`[#####.......] 512/1200 files`); elsewhere (logs, CI) a plain line every few seconds, so
 * quick runs print nothing and long ones show they are alive.
 */
export function createProgress(stream: OutputStream, options: ProgressOptions): ProgressReporter {
  if (!options.enabled) return { onProgress: () => {}, finish: () => {} };
  const now = options.now ?? Date.now;
  const started = now();
  if (stream.isTTY) {
    const redrawEvery = options.redrawIntervalMs ?? 80;
    let shown = 0;
    let lastDraw = -Infinity;
    let lastPhase: IndexProgress['phase'] | undefined;
    const draw = (text: string): void => {
      const width = Math.max(20, (stream.columns ?? 80) - 1);
      const line = `knowing: ${text}`.slice(0, width);
      stream.write(`\r${line}${' '.repeat(Math.max(0, shown - line.length))}`);
      shown = line.length;
    };
    return {
      onProgress(event) {
        if (event.phase === 'done') return;
        const t = now();
        const finalOfPhase = event.total > 0 && event.done === event.total;
        if (event.phase === lastPhase && !finalOfPhase && t - lastDraw < redrawEvery) return;
        lastPhase = event.phase;
        lastDraw = t;
        draw(describe(event));
      },
      finish() {
        if (shown > 0) stream.write(`\r${' '.repeat(shown)}\r`);
        shown = 0;
      },
    };
  }
  const every = options.lineIntervalMs ?? 3000;
  let lastLine = started;
  return {
    onProgress(event) {
      if (event.phase === 'done') return;
      const t = now();
      if (t - lastLine < every) return;
      lastLine = t;
      const text = event.phase === 'parse' ? `parsed ${event.done}/${event.total} files` : describe(event).replace(/^\[[#.]+\] /, '');
      stream.write(`knowing: ${text} (${Math.round((t - started) / 1000)} s)\n`);
    },
    finish() {},
  };
}
