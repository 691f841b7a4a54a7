/**
 * The browser's grammar loader writes each highlight query import out literally (Vite needs
 * them so); this keeps it equal to core's list, file for file and in order, and each file exists.
 */
import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import * as path from 'node:path';
import { describe, expect, it } from 'vitest';
import { HIGHLIGHT_QUERY_FILES } from '../../core/highlight/queries';

const source = readFileSync(path.join(__dirname, 'grammars.ts'), 'utf8');
const require = createRequire(import.meta.url);

describe('the browser grammar loader', () => {
  it("imports exactly core's highlight queries for each language, in core's order", () => {
    const block = source.slice(
      source.indexOf('const HIGHLIGHTS'),
      source.indexOf('async function fetchBytes'),
    );
    const found: Record<string, string[]> = {};
    for (const m of block.matchAll(/^ {2}([a-z]+): \(\) =>([\s\S]*?)\]\),?$/gm))
      found[m[1]] = [...m[2].matchAll(/import\('([^']+)\?raw'\)/g)].map((x) => x[1]);
    expect(found).toEqual(HIGHLIGHT_QUERY_FILES);
    for (const files of Object.values(HIGHLIGHT_QUERY_FILES))
      for (const f of files!) expect(() => require.resolve(f), f).not.toThrow();
  });
});
