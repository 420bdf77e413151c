/** Quote a term as an FTS5 string (double quotes doubled). */
export function ftsPhrase(term: string): string {
  return `"${term.replace(/"/g, '""')}"`;
}
