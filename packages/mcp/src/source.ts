import { readFileSync, statSync } from 'node:fs';
import path from 'node:path';

/** Files above this size are not read for code: an answer never needs a generated giant. */
const MAX_SOURCE_BYTES = 4 * 1024 * 1024;

/**
 * Reads repository files for code in answers: the text of a path as the index names it, or
 * undefined when it is gone, unreadable, too large, or would resolve outside the repository.
 * Files are read again for every answer (an agent edits them between calls).
 */
export function sourceReader(root: string): (file: string) => string | undefined {
  return (file) => {
    const absolute = path.resolve(root, file);
    const inside = path.relative(root, absolute);
    if (inside === '' || path.isAbsolute(inside) || inside.split(path.sep).includes('..')) return undefined;
    try {
      if (statSync(absolute).size > MAX_SOURCE_BYTES) return undefined;
      return readFileSync(absolute, 'utf8');
    } catch {
      return undefined;
    }
  };
}
