/** Shared by the analyzer tool tests: the fixture apps (real files via the Node adapter), in-memory trees, refusals. */
import { fileURLToPath } from 'node:url';
import { expect } from 'vitest';
import { NodeFsSource } from '../../adapters/node/fs';
import { nodeGrammarLoader } from '../../adapters/node/grammars';
import { sharedSourceParsers } from '../analyze/parsers';
import { QuarryError } from '../errors';
import { MemorySource, type MemoryTree } from '../source/memory';
import { Workspace } from '../source/workspace';
import type { ToolContext } from './types';

const APPS = fileURLToPath(new URL('../../../test/fixtures/apps/', import.meta.url));
export const parsers = () => sharedSourceParsers(nodeGrammarLoader);
export const fixture = (name: string): ToolContext => ({
  workspace: new Workspace([new NodeFsSource(APPS + name)]),
  parsers,
});
export const memory = (tree: MemoryTree): ToolContext => ({
  workspace: new Workspace([new MemorySource(tree, { name: 'repo' })]),
  parsers,
});

export async function refusal(p: Promise<unknown>): Promise<QuarryError> {
  const e = await p.then(
    () => null,
    (err) => err,
  );
  expect(e).toBeInstanceOf(QuarryError);
  return e as QuarryError;
}
