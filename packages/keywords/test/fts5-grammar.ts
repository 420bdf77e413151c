/**
 * A strict checker for the subset of FTS5 query syntax this package emits:
 *
 *   query  := clause (" OR " clause)*
 *   clause := [column ":"] (bareword | string) ["*"]
 *
 * A bareword is ASCII letters, digits and `_`, and not an operator (AND, OR, NOT, NEAR);
 * a string is double-quoted with inner quotes doubled and must hold a letter or digit.
 * Returns null when the query is valid (or empty), else what is wrong.
 */
export function checkFtsQuery(query: string, columns: readonly string[] = ['name', 'path']): string | null {
  if (query === '') return null;
  let i = 0;
  const fail = (what: string): string => `${what} at ${i} in ${JSON.stringify(query.slice(Math.max(0, i - 20), i + 20))}`;
  const bareword = (): string | null => {
    const start = i;
    while (i < query.length && /[A-Za-z0-9_]/.test(query[i]!)) i++;
    return i > start ? query.slice(start, i) : null;
  };
  const string = (): string | null => {
    if (query[i] !== '"') return null;
    i++;
    let body = '';
    for (;;) {
      if (i >= query.length) return null;
      if (query[i] === '"') {
        if (query[i + 1] === '"') {
          body += '"';
          i += 2;
          continue;
        }
        i++;
        return body;
      }
      body += query[i];
      i++;
    }
  };
  for (let clause = 0; ; clause++) {
    if (clause > 0) {
      if (query.slice(i, i + 4) !== ' OR ') return fail('expected " OR "');
      i += 4;
    }
    let column: string | null = null;
    const save = i;
    const word = bareword();
    if (word !== null && query[i] === ':') {
      if (!columns.includes(word)) return fail(`unknown column ${word}`);
      column = word;
      i++;
    } else {
      i = save;
    }
    if (query[i] === '"') {
      const body = string();
      if (body === null) return fail('unterminated string');
      if (!/[\p{L}\p{N}]/u.test(body)) return fail('string without a letter or digit');
    } else {
      const term = bareword();
      if (term === null) return fail('expected a term');
      if (/^(AND|OR|NOT|NEAR)$/i.test(term)) return fail(`bare operator ${term}`);
    }
    if (query[i] === '*') {
      if (column !== 'path') return fail('prefix outside the path column');
      i++;
    }
    if (i === query.length) return null;
  }
}
