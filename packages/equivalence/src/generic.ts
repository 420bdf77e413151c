import { DEFAULT_GENERIC_TARGET_OPTIONS, withDefaults } from './options.js';
import type { GenericTargetOptions } from './types.js';

const genericSets = new WeakMap<readonly string[], ReadonlySet<string>>();

function genericSet(names: readonly string[]): ReadonlySet<string> {
  let set = genericSets.get(names);
  if (!set) {
    set = new Set(names.map((n) => n.toLowerCase()));
    genericSets.set(names, set);
  }
  return set;
}

/** True when a target is a dotted path (`Library.filter`, `std::fs::read`). */
export function isDottedTarget(target: string): boolean {
  return target.includes('.') || target.includes('::');
}

/**
 * Whether the generic-target filter drops a target: an undotted target shorter than
 * `minTargetLength` (default: three characters or fewer) or named in `genericNames`
 * (case-insensitive). Such names resolve to hundreds of unrelated symbols in any real
 * repository. Dotted targets are never generic: their qualifier anchors them
 * (`Router.get` is fine, `get` is not).
 *
 * @example
 * ```ts
 * isGenericTarget('run');            // true
 * isGenericTarget('Get');            // true
 * isGenericTarget('Flask.run');      // false
 * isGenericTarget('EmailValidator'); // false
 * ```
 */
export function isGenericTarget(target: string, options?: GenericTargetOptions): boolean {
  if (isDottedTarget(target)) return false;
  const o = withDefaults(DEFAULT_GENERIC_TARGET_OPTIONS, options);
  return target.length < o.minTargetLength || genericSet(o.genericNames).has(target.toLowerCase());
}
