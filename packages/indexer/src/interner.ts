/** Values stored once each, numbered in the order they were first seen; `keyOf` says which values are the same. */
export class Interner<T> {
  readonly list: T[] = [];
  private readonly ids = new Map<unknown, number>();

  constructor(private readonly keyOf: (value: T) => unknown = (value) => value) {}

  /** The number of `value`, which is stored now if it is new. */
  id(value: T): number {
    const key = this.keyOf(value);
    let id = this.ids.get(key);
    if (id === undefined) {
      id = this.list.length;
      this.list.push(value);
      this.ids.set(key, id);
    }
    return id;
  }
}
