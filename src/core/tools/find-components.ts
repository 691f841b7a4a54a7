/**
 * find_components (seed 000): React components matching a name pattern, with the parser.
 * Seed shape `{ components: [{ name, path, type: 'function' | 'arrow' }], total }`; added
 * fields per component: line, endLine, kind, wrappers, exported, default, anonymous and
 * uses {count, places}. The rules are in core/analyze/components.ts.
 */
import { QuarryError } from '../errors';
import { compileMatcher } from '../grep/regex';
import { findComponents, type FoundComponent } from '../analyze/components';
import { requireParsers } from '../analyze/parsers';
import { resolveDirectory } from '../analyze/scan';
import type { Tool } from './types';
import { ensureObject, optionalString } from './validate';

export interface FindComponentsResult {
  components: Array<
    { name: string; path: string; type: 'function' | 'arrow' } & Omit<
      FoundComponent,
      'name' | 'path' | 'type'
    >
  >;
  total: number;
  /** Added: script files parsed, and files that could not be read or parsed. */
  filesScanned: number;
  skipped: Array<{ path: string; reason: string; detail?: string }>;
}

export const findComponentsTool: Tool<FindComponentsResult> = {
  name: 'find_components',
  description:
    "Find React components in the codebase matching a name pattern. Uses the parser: function and arrow components (export function X, export const X = () =>), default exports, memo/forwardRef wrappers and class components (extends React.Component), exported or not, in .tsx/.jsx/.ts/.js files. Each has name, path, type ('function' | 'arrow'), line, kind, exported, default and where it is used.",
  inputSchema: {
    type: 'object',
    properties: {
      namePattern: {
        type: 'string',
        description:
          "Regex pattern to match component names (e.g. 'Button', '.*Form'); RE2 syntax, unanchored, case-sensitive",
      },
      directory: {
        type: 'string',
        description:
          "Subdirectory to search within (e.g. 'components', 'features'); uses are still counted across the whole codebase",
      },
    },
    additionalProperties: false,
  },
  async execute(raw, ctx) {
    const args = ensureObject(raw);
    const namePattern = optionalString(args, 'namePattern');
    const directory = optionalString(args, 'directory');
    let acceptName: ((name: string) => boolean) | undefined;
    if (namePattern !== undefined && namePattern !== '') {
      let matcher;
      try {
        matcher = compileMatcher(namePattern, { mode: 'regex', caseMode: 'sensitive' });
      } catch (err) {
        const detail = err instanceof Error ? err.message : String(err);
        throw new QuarryError('InvalidPattern', `namePattern is not a valid regex: ${detail}`, {
          field: 'namePattern',
          value: namePattern,
        });
      }
      acceptName = (name) => matcher.lineHits(name).length > 0;
    }
    const starts =
      directory !== undefined && directory.trim() !== ''
        ? await resolveDirectory(ctx.workspace, directory, 'directory')
        : undefined;
    const parsers = await requireParsers(ctx.parsers, 'find_components');
    const found = await findComponents(ctx.workspace, parsers, { starts, acceptName, signal: ctx.signal });
    return {
      components: found.components.map(({ name, path, type, ...rest }) => ({ name, path, type, ...rest })),
      total: found.components.length,
      filesScanned: found.filesScanned,
      skipped: found.skipped.map(({ path, reason, detail }) =>
        detail === undefined ? { path, reason } : { path, reason, detail },
      ),
    };
  },
};
