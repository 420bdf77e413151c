import { readFileSync, statSync } from 'node:fs';
import { isAbsolute, relative, resolve } from 'node:path';

/** Files above this size are not read for code: an answer never needs a generated giant. */
const MAX_SOURCE_BYTES = 4 * 1024 * 1024;

/**
 * A reader of repository files for code mode: the text of a path as the index names it, or
 * undefined when the file is gone, unreadable, too large, or would resolve outside the
 * repository. Each file is read at most once.
 */
export function readSourceFile(root: string): (file: string) => string | undefined {
  const cache = new Map<string, string | undefined>();
  return (file) => {
    if (cache.has(file)) return cache.get(file);
    let text: string | undefined;
    const path = resolve(root, file);
    const inside = relative(root, path);
    if (inside !== '' && !inside.split(/[\\/]/).includes('..') && !isAbsolute(inside)) {
      try {
        if (statSync(path).size <= MAX_SOURCE_BYTES) text = readFileSync(path, 'utf8');
      } catch {
        text = undefined;
      }
    }
    cache.set(file, text);
    return text;
  };
}
