import { sha256Hex } from '@knowing/graph';

/** PostgreSQL truncates identifiers beyond 63 bytes; derived names stay within. */
const MAX_IDENTIFIER = 63;
const HASH_CHARS = 8;
const PLAIN_IDENTIFIER = /^[A-Za-z_][A-Za-z0-9_]*$/;

/**
 * The schema of a repository: `prefix`, then the repository name lower-cased with every run of
 * other characters than `a-z0-9` made `_` (cut to fit), then 8 hex characters of its SHA-256,
 * so different names never share a schema and the schema still says whose it is.
 *
 * @example
 * ```ts
 * schemaNameOf('github.com/acme/shop'); // 'knowing_github_com_acme_shop_1f0c…'
 * ```
 */
export function schemaNameOf(repository: string, prefix = 'knowing_'): string {
  const hash = sha256Hex(repository).slice(0, HASH_CHARS);
  const room = MAX_IDENTIFIER - prefix.length - HASH_CHARS - 1;
  const slug = repository
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, '_')
    .replace(/^_+|_+$/g, '')
    .slice(0, Math.max(0, room))
    .replace(/_+$/, '');
  return slug === '' ? `${prefix}${hash}` : `${prefix}${slug}_${hash}`;
}

/** True for a schema name usable without quoting surprises: letters, digits, `_`, at most 63 bytes. */
export function isPlainIdentifier(name: string): boolean {
  return PLAIN_IDENTIFIER.test(name) && Buffer.byteLength(name) <= MAX_IDENTIFIER;
}
