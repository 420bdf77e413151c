/** A frozen, de-duplicated copy of a word list, in first-seen order. */
export function frozenList(...lists: readonly (readonly string[])[]): readonly string[] {
  return Object.freeze([...new Set(lists.flat())]);
}
