/** Small text helpers for human-readable output. */

/** `calls 40, contains 30, imports 12` — largest first, ties by name, at most `limit` entries. */
export function countList(counts: Readonly<Record<string, number>>, limit = Infinity): string {
  const entries = Object.entries(counts)
    .filter(([, n]) => n > 0)
    .sort((a, b) => b[1] - a[1] || a[0].localeCompare(b[0]));
  if (entries.length === 0) return 'none';
  const shown = entries.slice(0, limit).map(([name, n]) => `${name} ${formatInt(n)}`);
  if (entries.length > limit) shown.push(`${entries.length - limit} more`);
  return shown.join(', ');
}

/** `12,345`. Not toLocaleString: its first call loads ICU's number formatting (~15 ms). */
export function formatInt(n: number): string {
  return String(Math.round(n)).replace(/\B(?=(\d{3})+$)/g, ',');
}

export function formatMs(ms: number): string {
  if (ms < 1000) return `${Math.round(ms)} ms`;
  if (ms < 60_000) return `${(ms / 1000).toFixed(1)} s`;
  const minutes = Math.floor(ms / 60_000);
  return `${minutes} min ${Math.round((ms % 60_000) / 1000)} s`;
}

export function formatBytes(bytes: number): string {
  if (bytes < 1024) return `${bytes} B`;
  const units = ['KB', 'MB', 'GB', 'TB'];
  let value = bytes / 1024;
  let unit = 0;
  while (value >= 1024 && unit < units.length - 1) {
    value /= 1024;
    unit++;
  }
  return `${value.toFixed(value < 10 ? 1 : 0)} ${units[unit]}`;
}

/** "3 minutes ago", "2 days ago". */
export function ago(then: number, now: number): string {
  const seconds = Math.max(0, Math.round((now - then) / 1000));
  const steps: readonly [number, string][] = [
    [60, 'second'],
    [60, 'minute'],
    [24, 'hour'],
    [Infinity, 'day'],
  ];
  let value = seconds;
  for (const [size, unit] of steps) {
    if (value < size) return value === 0 && unit === 'second' ? 'just now' : `${value} ${unit}${value === 1 ? '' : 's'} ago`;
    value = Math.floor(value / size);
  }
  return 'long ago';
}

/** Local date and time without the time zone noise: `2026-11-22 03:11`. */
export function formatTime(ms: number): string {
  const d = new Date(ms);
  const pad = (n: number): string => String(n).padStart(2, '0');
  return `${d.getFullYear()}-${pad(d.getMonth() + 1)}-${pad(d.getDate())} ${pad(d.getHours())}:${pad(d.getMinutes())}`;
}

/** Rows of cells as aligned columns (two spaces apart), each line indented by `indent`. */
export function table(rows: readonly (readonly string[])[], indent = ''): string[] {
  const widths: number[] = [];
  for (const row of rows) row.forEach((cell, i) => (widths[i] = Math.max(widths[i] ?? 0, cell.length)));
  return rows.map((row) => indent + row.map((cell, i) => (i === row.length - 1 ? cell : cell.padEnd(widths[i]!))).join('  ').trimEnd());
}

export function plural(n: number, word: string, pluralWord = `${word}s`): string {
  return `${formatInt(n)} ${n === 1 ? word : pluralWord}`;
}

/** Scores shown with four significant decimals, small ones in exponent form. */
export function formatScore(value: number): string {
  if (value === 0) return '0';
  if (Math.abs(value) < 0.0001) return value.toExponential(2);
  return value.toFixed(4);
}
