/**
 * The viewer's exact colouring: a file is parsed once with its grammar (in the worker, never on
 * the page's thread) and each request colours the window on screen; the parse is kept in the
 * root's state (the last few files; freed when evicted or when the root closes).
 */
import { QuarryError } from '../../core/errors';
import { SyntaxColourer, type ParsedSyntax } from '../../core/highlight/syntax';
import { slot } from '../../core/workspace/root-state';
import type { SyntaxWindow } from '../protocol';
import type { ServiceHandlers } from './api';
import { requirePath, type EngineContext } from './context';

/** Lines one request may colour (a screen is ~60; a tall one with overscan a few hundred). */
export const SYNTAX_WINDOW_MAX_LINES = 2000;
/** Parsed files kept per root. */
const KEPT = 4;

/** The last few parsed files of a root, most recent last; a file pushed out is freed. */
class ParsedFiles {
  private readonly entries: Array<[rel: string, parsed: Promise<ParsedSyntax | null>]> = [];

  get(rel: string, make: () => Promise<ParsedSyntax | null>): Promise<ParsedSyntax | null> {
    const i = this.entries.findIndex(([r]) => r === rel);
    if (i >= 0) {
      const [entry] = this.entries.splice(i, 1);
      this.entries.push(entry);
      return entry[1];
    }
    const made = make();
    this.entries.push([rel, made]);
    if (this.entries.length > KEPT) free(this.entries.shift()![1]);
    return made;
  }

  dispose(): void {
    for (const [, p] of this.entries.splice(0)) free(p);
  }
}

function free(p: Promise<ParsedSyntax | null>): void {
  void p.then((parsed) => parsed?.dispose()).catch(() => undefined);
}

const PARSED = slot<ParsedFiles>('parsed files for colouring');

export function viewerHandlers(ctx: EngineContext): ServiceHandlers<'viewer'> {
  const loader = ctx.options.grammarLoader;
  const colourer = loader?.highlightsQuery ? new SyntaxColourer(loader) : null;
  return {
    syntax: async (path, fromLine, toLine): Promise<SyntaxWindow | null> => {
      requirePath(path);
      if (!Number.isInteger(fromLine) || !Number.isInteger(toLine) || fromLine < 1 || toLine < fromLine)
        throw new QuarryError(
          'InvalidArgument',
          'fromLine and toLine must be lines, 1 <= fromLine <= toLine',
          {
            field: 'fromLine',
          },
        );
      if (!colourer || !SyntaxColourer.covers(path)) return null;
      const last = Math.min(toLine, fromLine + SYNTAX_WINDOW_MAX_LINES - 1);
      const { root: session, rel } = ctx.roots.route(path);
      const files = session.state.getOrMake(PARSED, () => new ParsedFiles());
      const parsed = await files.get(rel, async () =>
        colourer.parse(rel, (await session.readFile(rel)).text),
      );
      if (!parsed) return null;
      return { path, language: parsed.language, fromLine, lines: parsed.lines(fromLine, last) };
    },
  };
}
