import { readFileSync } from 'node:fs';
import { join } from 'node:path';

/** A reader of a checkout's files for code mode, each read once; undefined when unreadable. */
export function readSource(root: string): (file: string) => string | undefined {
  const cache = new Map<string, string | undefined>();
  return (file) => {
    if (!cache.has(file)) {
      try {
        cache.set(file, readFileSync(join(root, file), 'utf8'));
      } catch {
        cache.set(file, undefined);
      }
    }
    return cache.get(file);
  };
}
