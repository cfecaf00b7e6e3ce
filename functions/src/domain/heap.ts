/**
 * A binary min-heap: merges many sorted streams (one per event) into one sorted page without
 * sorting everything they hold. Small enough not to warrant a dependency.
 */
export class MinHeap<T> {
  private readonly items: T[];

  /** `initial` is taken over (no copy) and arranged in linear time. */
  constructor(
    private readonly compare: (a: T, b: T) => number,
    initial: T[] = [],
  ) {
    this.items = initial;
    for (let i = (initial.length >> 1) - 1; i >= 0; i--) this.siftDown(i);
  }

  get size(): number {
    return this.items.length;
  }

  push(item: T): void {
    const items = this.items;
    let i = items.push(item) - 1;
    while (i > 0) {
      const parent = (i - 1) >> 1;
      if (this.compare(items[i], items[parent]) >= 0) break;
      [items[i], items[parent]] = [items[parent], items[i]];
      i = parent;
    }
  }

  /** The smallest item, removed; undefined when empty. */
  pop(): T | undefined {
    const items = this.items;
    const top = items[0];
    const last = items.pop();
    if (items.length === 0 || last === undefined) return top;
    items[0] = last;
    this.siftDown(0);
    return top;
  }

  private siftDown(from: number): void {
    const items = this.items;
    for (let i = from; ;) {
      const left = 2 * i + 1;
      const right = left + 1;
      let smallest = i;
      if (left < items.length && this.compare(items[left], items[smallest]) < 0) smallest = left;
      if (right < items.length && this.compare(items[right], items[smallest]) < 0) smallest = right;
      if (smallest === i) return;
      [items[i], items[smallest]] = [items[smallest], items[i]];
      i = smallest;
    }
  }
}
