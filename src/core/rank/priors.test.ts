/**
 * Kind and file-role priors in Ranked (issue 31), through the real chunker: the cases that
 * made ranking worse as coverage grew (excalidraw's locale keys above the code that exports an
 * image; a C prototype in a header above its body), the statistics that must not collapse,
 * and what lifts a prior (the query names the key, or says the role).
 */
import { beforeAll, describe, expect, it } from 'vitest';
import { nodeGrammarLoader } from '../../adapters/node/grammars';
import { Chunker } from '../chunk';
import { MemorySource } from '../source/memory';
import { Workspace } from '../source/workspace';
import type { ChunkIndex } from './bm25';
import { rankChunks } from './ranked';
import { chunkPrior, isDeclaration, isReexportList, rolesNamed, weightedStats } from './priors';
import { CodeIndexService } from './service';

let chunker: Chunker;
beforeAll(async () => {
  chunker = await Chunker.create(nodeGrammarLoader);
});

async function indexOf(files: Record<string, string>): Promise<ChunkIndex> {
  const service = new CodeIndexService(new Workspace([new MemorySource({ ...files })]), async () => chunker);
  await service.refresh();
  return service.index!;
}

const LANGS = ['en', 'de', 'fr', 'es', 'it', 'pt', 'nl', 'pl', 'ru', 'ja', 'ko', 'zh'];

/** excalidraw in miniature: an image-export dialog's strings in every locale, and the code that exports. */
function excalidraw(): Record<string, string> {
  const files: Record<string, string> = {
    'packages/utils/src/export.ts': `import { renderScene } from './render';

export const exportToCanvas = async (elements: readonly Element[], appState: AppState, files: BinaryFiles) => {
  const canvas = document.createElement('canvas');
  const scale = appState.exportScale;
  canvas.width = appState.width * scale;
  renderScene({ canvas, elements, files, scale });
  return canvas;
};

export const exportToBlob = async (elements: readonly Element[], appState: AppState, mimeType = 'image/png') => {
  const canvas = await exportToCanvas(elements, appState, {});
  return new Promise<Blob>((resolve) => canvas.toBlob((blob) => resolve(blob!), mimeType));
};
`,
    'packages/utils/src/render.ts': `export function renderScene(opts: { canvas: HTMLCanvasElement; scale: number }) {
  const context = opts.canvas.getContext('2d');
  context.scale(opts.scale, opts.scale);
}
`,
    'packages/excalidraw/components/ImageExportDialog.scss': `.ImageExportModal {
  display: flex;
  .ImageExportModal__preview { height: 360px; }
  .ImageExportModal__settings { gap: 1rem; }
}
`,
  };
  // the rest of the app: code that neither exports nor draws images
  const topics = [
    'history',
    'arrow',
    'binding',
    'selection',
    'snapping',
    'grid',
    'zoom',
    'cursor',
    'library',
    'collab',
    'clipboard',
    'fonts',
    'laser',
    'frame',
    'group',
    'text',
    'linear',
    'elbow',
    'eraser',
    'hand',
  ];
  topics.forEach((topic, i) => {
    files[`packages/excalidraw/${topic}.ts`] =
      `function update${topic[0].toUpperCase()}${topic.slice(1)}(state: AppState, delta: number) {
  const next = { ...state, ${topic}Version: state.version + delta * ${i + 1} };
  return commitState(next, '${topic}');
}
`;
  });
  for (const lang of LANGS) {
    files[`packages/excalidraw/locales/${lang}.json`] = JSON.stringify(
      {
        imageExportDialog: {
          header: 'Export image',
          label: {
            withBackground: 'Background',
            onlySelected: 'Only selected',
            darkMode: 'Dark mode',
            embedScene: 'Embed scene',
            scale: 'Scale',
          },
          title: {
            exportToPng: 'Export to PNG',
            exportToSvg: 'Export to SVG',
            copyPngToClipboard: 'Copy PNG to clipboard',
          },
          button: { exportToPng: 'PNG', exportToSvg: 'SVG', copyPngToClipboard: 'Copy to clipboard' },
        },
      },
      null,
      2,
    );
  }
  return files;
}

/** git's layout in miniature: builtin.h declares every command, builtin/commit.c defines one. */
const GIT: Record<string, string> = {
  'builtin.h': `#ifndef BUILTIN_H
#define BUILTIN_H
int cmd_add(int argc, const char **argv, const char *prefix);
int cmd_commit(int argc, const char **argv, const char *prefix);
int cmd_status(int argc, const char **argv, const char *prefix);
#endif
`,
  'builtin/commit.c': `#include "builtin.h"

int cmd_commit(int argc, const char **argv, const char *prefix)
{
	struct commit_opts opts = { 0 };
	struct strbuf sb = STRBUF_INIT;
	struct object_id oid;
	int allow_fast_forward = 1;
	const char *index_file;

	parse_options(argc, argv, prefix, &opts);
	if (opts.amend && !current_head)
		die(_("You have nothing to amend."));
	if (opts.fixup_message && opts.squash_message)
		die(_("options '%s' and '%s' cannot be used together"), "--squash", "--fixup");
	index_file = prepare_index(argc, argv, prefix, current_head, 0);
	if (!prepare_to_commit(index_file, prefix, current_head, &s, &author_ident)) {
		rollback_index_files();
		return 1;
	}
	if (write_index_as_tree(&oid, the_repository->index, index_file, 0, NULL))
		die(_("failed to write tree"));
	strbuf_release(&sb);
	rerere(0);
	run_auto_maintenance(quiet);
	run_commit_hook(use_editor, get_index_file(), NULL, "post-commit", NULL);
	print_summary(prefix, &oid, !current_head);
	return allow_fast_forward ? 0 : 1;
}
`,
  'builtin/add.c': `#include "builtin.h"

int cmd_add(int argc, const char **argv, const char *prefix)
{
	return add_files(argc, argv, prefix);
}
`,
};

describe('Ranked priors', () => {
  it('puts the code that exports an image above the locale keys and style rules that say "export image"', async () => {
    const index = await indexOf(excalidraw());
    const hits = rankChunks(index, 'export an image', 20);
    expect(hits[0].chunk.path).toBe('packages/utils/src/export.ts');
    expect(hits[0].chunk.symbolName).toBe('exportToBlob');
    // every locale key comes after both exporting functions
    const lastCode = Math.max(
      ...['exportToBlob', 'exportToCanvas'].map((name) => hits.findIndex((h) => h.chunk.symbolName === name)),
    );
    const firstKey = hits.findIndex((h) => h.role === 'locale');
    expect(lastCode).toBeGreaterThanOrEqual(0);
    expect(firstKey).toBeGreaterThan(lastCode);
    const key = hits.find((h) => h.role === 'locale')!;
    expect(key.chunk.chunkType).toBe('key');
    expect(key.discounts).toEqual(['key', 'locale file']);
  });

  it('lets a locale key win when the query names it by its identifier or its words, or says "translation"', async () => {
    const index = await indexOf(excalidraw());
    for (const query of ['imageExportDialog', 'image export dialog header']) {
      const named = rankChunks(index, query, 5);
      expect(named[0].chunk.path, query).toMatch(/^packages\/excalidraw\/locales\/\w+\.json$/);
      expect(named[0].prior, query).toBe(1);
    }
    const said = rankChunks(index, 'export image translation', 5);
    expect(said[0].role).toBe('locale');
    expect(said[0].discounts).toEqual([]);
  });

  it('keeps twelve locales from collapsing the idf of a word the code uses', async () => {
    const files = excalidraw();
    const without = Object.fromEntries(Object.entries(files).filter(([p]) => !p.includes('/locales/')));
    const component = (index: ChunkIndex) =>
      rankChunks(index, 'export an image', 50)
        .find((h) => h.chunk.symbolName === 'exportToBlob')!
        .components.find((c) => c.word === 'image')!;
    const lone = component(await indexOf(without));
    const index = await indexOf(files);
    const withLocales = component(index);
    // twelve locale key chunks hold "image": plain BM25 counts them as twelve more documents
    const plainIdf = (n: number, df: number) => Math.log(1 + (n - df + 0.5) / (df + 0.5));
    const plain = plainIdf(index.chunkCount, index.documentFrequency(index.termIdOf('image')!));
    expect(plain).toBeLessThan(lone.idf * 0.6);
    // weighed by their prior (0.15 a key in a locale file) they count as about two
    expect(withLocales.documentFrequency).toBeLessThan(lone.documentFrequency + 2.5);
    expect(withLocales.idf).toBeGreaterThan(lone.idf * 0.8);
    expect(weightedStats(index).total).toBeLessThan(index.chunkCount - 12 * 0.8);
  });

  it('ranks a C body above its header prototype, and the prototype still appears', async () => {
    const index = await indexOf(GIT);
    for (const query of ['cmd_commit', 'cmd commit argc argv prefix']) {
      const hits = rankChunks(index, query, 10);
      expect(hits[0].chunk.path, query).toBe('builtin/commit.c');
      const proto = hits.find((h) => h.chunk.path === 'builtin.h' && h.chunk.symbolName === 'cmd_commit');
      expect(proto?.declaration, query).toBe(true);
      expect(proto?.discounts).toContain('declaration');
    }
  });

  it('ranks source above its tests, changelog and snapshots unless the query says so', async () => {
    const index = await indexOf({
      'src/parse.ts':
        'export function parseDuration(text: string): number {\n  const match = /^(\\d+)(ms|s)$/.exec(text);\n  return match ? Number(match[1]) : NaN;\n}\n',
      'src/parse.test.ts':
        "describe('parseDuration', () => {\n  it('parses a duration in seconds', () => {\n    expect(parseDuration('3s')).toBe(3);\n  });\n});\n",
      'CHANGELOG.md': '# Changelog\n\n## 1.2.0\n\n- parse a duration given in seconds or ms\n',
      'src/__snapshots__/parse.test.ts.snap': 'exports[`parse duration seconds 1`] = `3`;\n',
    });
    expect(rankChunks(index, 'parse a duration in seconds', 5)[0].chunk.path).toBe('src/parse.ts');
    expect(rankChunks(index, 'parse duration seconds test', 5)[0].chunk.path).toBe('src/parse.test.ts');
    expect(rankChunks(index, 'changelog parse duration', 5)[0].chunk.path).toBe('CHANGELOG.md');
  });
});

describe('barrels', () => {
  it('ranks the function that reads a blob above the barrel that imports and re-exports every API name', async () => {
    const apis = [
      'add',
      'commit',
      'readBlob',
      'writeBlob',
      'readTree',
      'writeTree',
      'readCommit',
      'log',
      'status',
      'checkout',
      'clone',
      'fetch',
      'push',
      'branch',
      'tag',
    ];
    const barrel =
      apis.map((a) => `import { ${a} } from './api/${a}.js'`).join('\n') +
      '\n\nexport {\n' +
      apis.map((a) => `  ${a},`).join('\n') +
      '\n}\n\nexport default {\n' +
      apis.map((a) => `  ${a},`).join('\n') +
      '\n}\n';
    const files: Record<string, string> = { 'src/index.js': barrel };
    for (const a of apis)
      files[`src/api/${a}.js`] =
        `export async function ${a}({ fs, dir, oid }) {\n  const result = await _${a}({ fs, dir, oid })\n  return result\n}\n`;
    files['src/api/readBlob.js'] =
      'export async function readBlob({ fs, dir, gitdir, oid, filepath }) {\n  const { blob, oid: resolved } = await resolveBlob({ fs, gitdir, oid })\n  if (filepath !== undefined) return resolveFilepath({ fs, gitdir, oid, filepath })\n  return { oid: resolved, blob: new Uint8Array(blob) }\n}\n';
    const index = await indexOf(files);
    const hits = rankChunks(index, 'read a blob', 10);
    expect(hits[0].chunk.path).toBe('src/api/readBlob.js');
    // "blob" alone: both blob functions before the barrel that names them three times each
    const blob = rankChunks(index, 'blob', 10).map((h) => h.chunk.path);
    expect(blob.indexOf('src/index.js')).toBeGreaterThan(
      Math.max(blob.indexOf('src/api/readBlob.js'), blob.indexOf('src/api/writeBlob.js')),
    );
    const fromBarrel = hits.filter((h) => h.chunk.path === 'src/index.js');
    expect(fromBarrel.length).toBeGreaterThan(0);
    for (const h of fromBarrel) expect(h.discounts, JSON.stringify(h.chunk.snippet)).toContain('re-exports');
  });
  it.each([
    ["import { a } from './a'\nimport { b } from './b'\nexport * from './c'\nexport { d } from './d'", true],
    ['export {\n  add,\n  commit,\n  log,\n}', true],
    [
      "const a = require('./a')\nconst b = require('./b')\nmodule.exports = require('./c')\nexports.d = require('./d')",
      true,
    ],
    ["import { a } from './a'\nimport { b } from './b'\n\nexport function f() {\n  return a(b)\n}", false],
    ["import { a } from './a'\nexport { a }", false],
  ])('isReexportList(%j) is %s', (snippet, want) => {
    expect(isReexportList({ snippet })).toBe(want);
  });
});

describe('prior rules', () => {
  const chunk = (path: string, snippet: string, chunkType: 'function' | 'method' | 'key' = 'function') => ({
    path,
    snippet,
    chunkType,
    startLine: 1,
    endLine: 1,
    symbolName: 'f',
    tokenCount: 3,
    uniqueCount: 3,
  });
  it.each([
    ['builtin.h', 'int cmd_commit(int argc, const char **argv);', true],
    ['src/util.c', 'static int helper(void);', true],
    ['src/util.c', 'int helper(void)\n{\n\treturn 0;\n}', false],
    ['src/shape.hpp', 'struct Point { int x; };', false],
    ['src/api.ts', 'export function load(path: string): Config;', true],
    ['src/api.ts', 'export function load(path: string): Config {\n  return read(path);\n}', false],
    ['src/api.ts', 'export const load = (path: string) => read(path);', false],
    ['src/api.ts', 'declare function load(path: string): Config', true],
    ['types/index.d.ts', 'export function load(path: string): Config', true],
    ['src/app.py', 'def load(path):\n    return read(path);', false],
  ])('isDeclaration(%s, %j) is %s', (path, snippet, want) => {
    expect(isDeclaration(chunk(path, snippet))).toBe(want);
  });
  it('weighs a key in a locale file below a function in source, and names roles by their words', () => {
    expect(chunkPrior(chunk('src/a.ts', 'function f() {}')).weight).toBe(1);
    const key = chunkPrior(chunk('locales/en.json', '"f": "x"', 'key'));
    expect(key.role).toBe('locale');
    expect(key.weight).toBeLessThan(0.2);
    expect([...rolesNamed(['where', 'tests', 'changelog'])].sort()).toEqual(['changelog', 'test']);
    expect(rolesNamed(['parse', 'duration']).size).toBe(0);
  });
});
