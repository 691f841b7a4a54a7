/**
 * A search's accounting, one matching line at a time in walk order: the global cap on
 * delivered matches, the count that goes on to `countLimit` (then `total` is a lower bound),
 * files searched and matched, skips, and the sink that may stop the search. The one-thread
 * search feeds it as it finds lines; the pool's coordinator feeds it the lanes' answers in
 * walk order, so both end with the same summary.
 */
import type { Skipped } from '../walk/policy';
import type { GrepMatch, GrepSink, GrepSummary } from './types';

export class SearchTally {
  total = 0;
  delivered = 0;
  filesSearched = 0;
  filesMatched = 0;
  totalIsExact = true;
  limitHit = false;
  ending: GrepSummary['ending'] = 'complete';
  /** Set once nothing more may be searched (a cap, the sink, a cancel). */
  done = false;
  readonly skipped: Skipped[] = [];
  private matches: GrepMatch[] = [];
  private fileHadMatch = false;

  constructor(
    readonly maxResults: number,
    readonly countLimit: number,
    private readonly sink: GrepSink,
  ) {}

  /**
   * The largest number of matching lines a search may need to count before it stops:
   * a part of the walk (a pool's chunk) never needs to count more than one past this.
   */
  get countCeiling(): number {
    return Math.max(this.countLimit, this.maxResults);
  }

  /** One matching line of the current file; `make` builds it when it is delivered. False: stop. */
  line(make: () => GrepMatch): boolean {
    if (this.delivered >= this.maxResults) this.limitHit = true;
    if (this.total >= this.countLimit && this.delivered >= this.maxResults) {
      // one more match than we are allowed to count: total is only a lower bound
      this.totalIsExact = false;
      this.done = true;
      return false;
    }
    this.total++;
    this.fileHadMatch = true;
    if (this.delivered < this.maxResults) {
      this.delivered++;
      this.matches.push(make());
    }
    return true;
  }

  /** A file read (or passed over by the byte prefilter). */
  searched(): void {
    this.filesSearched++;
  }

  skip(s: Skipped): void {
    this.skipped.push(s);
  }

  /** Forget the current file's lines (it was skipped or passed over). */
  dropFile(): void {
    this.matches = [];
    this.fileHadMatch = false;
  }

  /** Count and deliver the current file's matches; true when the search must stop here. */
  finishFile(path: string): boolean {
    const matches = this.matches;
    if (this.fileHadMatch) this.filesMatched++;
    this.matches = [];
    this.fileHadMatch = false;
    if (matches.length && this.sink({ path, matches }) === false) {
      this.ending = 'stopped';
      this.totalIsExact = false;
      this.done = true;
    }
    if (this.done) return true;
    if (this.delivered >= this.maxResults && this.countLimit <= this.total) {
      // cap reached and nothing more may be counted: peek no further
      if (this.countLimit === this.total) this.totalIsExact = false; // there may be more; we did not look
      this.done = true;
      return true;
    }
    return false;
  }

  cancel(): void {
    this.ending = 'cancelled';
    this.totalIsExact = false;
    this.done = true;
  }

  summary(elapsedMs: number, strategy: string): GrepSummary {
    return {
      total: this.total,
      totalIsExact: this.totalIsExact,
      limitHit: this.limitHit,
      delivered: this.delivered,
      filesSearched: this.filesSearched,
      filesMatched: this.filesMatched,
      skipped: this.skipped,
      elapsedMs,
      ending: this.ending,
      strategy,
    };
  }
}
