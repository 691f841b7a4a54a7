/**
 * One file's time budget, over its whole chunking: the parse (tree-sitter's progress callback),
 * the tags query (its own progress callback) and the walk of the tree (each candidate
 * definition, each chunk added). The walk needs it as much as the parse: on deeply nested code
 * (20,000 nested Java classes, Ruby `def`s or C# namespaces) the parse takes a second, but
 * every `node.parent` costs as much as the node is deep (tree-sitter finds a parent by walking
 * down from the root), so the walk took 30-130 s before it had a budget.
 *
 * Asking is cheap: the clock is read once every CHECK_EVERY asks (the progress callback comes
 * every few hundred microseconds), and once spent the budget stays spent.
 */

/** How many asks between two reads of the clock. */
export const CHECK_EVERY = 16;

/** Thrown out of a walk whose file ran out of time (Chunker turns it into QuarryError 'parse-timeout'). */
export class BudgetSpent extends Error {
  constructor(readonly ms: number) {
    super(`the file's parse budget of ${ms} ms was spent`);
    this.name = 'BudgetSpent';
  }
}

export class ParseBudget {
  private readonly deadline: number;
  private asks = 0;
  private over = false;

  constructor(
    readonly ms: number,
    private readonly now: () => number = () => performance.now(),
  ) {
    this.deadline = now() + ms;
  }

  /** True once the time is up (from then on, always). */
  spent(): boolean {
    if (this.over) return true;
    if (++this.asks < CHECK_EVERY) return false;
    this.asks = 0;
    this.over = this.now() > this.deadline;
    return this.over;
  }

  /** Throws BudgetSpent once the time is up. */
  check(): void {
    if (this.spent()) throw new BudgetSpent(this.ms);
  }

  /**
   * For web-tree-sitter's `progressCallback` (parse and query options): returning true stops
   * the parse or the query. Its .d.ts says the callback returns void; the runtime reads the value.
   */
  readonly progress = (() => this.spent()) as () => void;
}
