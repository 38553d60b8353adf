/** A directed weighted graph: source node -> (target node -> edge weight). */
export type WeightedDigraph = Map<number, Map<number, number>>;

export interface ShortestPaths {
  /** Distance from the source to every reached node (the source maps to 0). */
  dist: Map<number, number>;
  /** Predecessor of every reached node except the source. */
  prev: Map<number, number>;
}

/** Min-heap on (distance, node id), so ties resolve to the smaller id and results are deterministic. */
class Heap {
  private items: Array<[number, number]> = [];
  get size(): number {
    return this.items.length;
  }
  private less(i: number, j: number): boolean {
    const a = this.items[i]!;
    const b = this.items[j]!;
    return a[0] < b[0] || (a[0] === b[0] && a[1] < b[1]);
  }
  private swap(i: number, j: number): void {
    const t = this.items[i]!;
    this.items[i] = this.items[j]!;
    this.items[j] = t;
  }
  push(d: number, node: number): void {
    this.items.push([d, node]);
    let i = this.items.length - 1;
    while (i > 0) {
      const p = (i - 1) >> 1;
      if (!this.less(i, p)) break;
      this.swap(i, p);
      i = p;
    }
  }
  pop(): [number, number] {
    const top = this.items[0]!;
    const last = this.items.pop()!;
    if (this.items.length > 0) {
      this.items[0] = last;
      let i = 0;
      for (;;) {
        const l = 2 * i + 1;
        const r = l + 1;
        let m = i;
        if (l < this.items.length && this.less(l, m)) m = l;
        if (r < this.items.length && this.less(r, m)) m = r;
        if (m === i) break;
        this.swap(i, m);
        i = m;
      }
    }
    return top;
  }
}

/**
 * Single-source shortest paths (non-negative weights). Distances accumulate edge by edge from 0,
 * so dist equals the left-to-right sum of the weights along the returned path.
 * With `stopAtAny`, stops as soon as one of those nodes is settled and reports it as `settledTarget`.
 */
export function dijkstra(
  graph: WeightedDigraph,
  source: number,
  stopAtAny?: ReadonlySet<number>,
): ShortestPaths & { settledTarget?: number } {
  const dist = new Map<number, number>([[source, 0]]);
  const prev = new Map<number, number>();
  const done = new Set<number>();
  const heap = new Heap();
  heap.push(0, source);
  while (heap.size > 0) {
    const [d, u] = heap.pop();
    if (done.has(u)) continue;
    done.add(u);
    if (stopAtAny?.has(u)) return { dist, prev, settledTarget: u };
    for (const [v, w] of graph.get(u) ?? []) {
      const nd = d + w;
      const old = dist.get(v);
      if (old === undefined || nd < old) {
        dist.set(v, nd);
        prev.set(v, u);
        heap.push(nd, v);
      }
    }
  }
  return { dist, prev };
}

/** Walks `prev` back from `target`; the path starts at the source. */
export function tracePath(prev: ReadonlyMap<number, number>, source: number, target: number): number[] {
  const path = [target];
  let node = target;
  while (node !== source) {
    const p = prev.get(node);
    if (p === undefined) throw new Error(`node ${target} was not reached from ${source}`);
    path.push(p);
    node = p;
  }
  return path.reverse();
}

/**
 * The shortest path from `source` to the nearest node of `targets` (ties: smaller node id),
 * or null when none is reachable. A source inside `targets` gives the one-node path of length 0.
 */
export function shortestPathToAny(
  graph: WeightedDigraph,
  source: number,
  targets: Iterable<number>,
): { path: number[]; length: number } | null {
  const goals = new Set(targets);
  const { dist, prev, settledTarget } = dijkstra(graph, source, goals);
  if (settledTarget === undefined) return null;
  return { path: tracePath(prev, source, settledTarget), length: dist.get(settledTarget)! };
}

/** Nodes reachable from `source` (the source included). */
export function reachableFrom(graph: WeightedDigraph, source: number): Set<number> {
  const seen = new Set([source]);
  const stack = [source];
  while (stack.length > 0) {
    const u = stack.pop()!;
    for (const v of graph.get(u)?.keys() ?? []) {
      if (!seen.has(v)) {
        seen.add(v);
        stack.push(v);
      }
    }
  }
  return seen;
}
