/**
 * Which files of a model folder are copied (core/semantic/onnx-pick.ts), and what a build does
 * with QUARRY_EMBED_MODEL (scripts/vite-embed-model.ts): the plan, the emitted assets under
 * assets/embed-model/ with hashed names, and nothing at all without the variable.
 */
import * as fs from 'node:fs';
import * as path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import type { Plugin } from 'vite';
import { pickLayoutFiles } from '../../core/semantic/onnx-pick';
import { planEmbedModel, quarryEmbedModel } from '../../../vite.config';
import { removeModelDir, tinyGraph, writeModelDir } from './onnx-fixture.testutil';

const dirs: string[] = [];
afterAll(() => dirs.forEach(removeModelDir));
const modelDir = (files: Parameters<typeof writeModelDir>[0], name?: string) => {
  const dir = writeModelDir(files, name);
  dirs.push(dir);
  return dir;
};

describe('pickLayoutFiles', () => {
  const has = (paths: string[]) => (p: string) => paths.includes(p);
  it('takes the JSON files there are, the pooling config modules.json names, and one ONNX export', () => {
    const paths = [
      'config.json',
      'tokenizer.json',
      'tokenizer_config.json',
      'modules.json',
      'pool/config.json',
      '1_Pooling/config.json',
      'onnx/model.onnx',
      'onnx/model_quantized.onnx',
      'onnx/model_fp16.onnx',
      'README.md',
    ];
    const modules = [{ idx: 1, name: '1', path: 'pool', type: 'sentence_transformers.models.Pooling' }];
    expect(pickLayoutFiles(has(paths), modules, { prefer: 'quantized' })).toEqual({
      onnx: 'onnx/model_quantized.onnx',
      files: [
        'config.json',
        'tokenizer.json',
        'tokenizer_config.json',
        'modules.json',
        'pool/config.json',
        'onnx/model_quantized.onnx',
      ],
    });
    expect(pickLayoutFiles(has(paths), undefined).onnx).toBe('onnx/model.onnx');
    expect(pickLayoutFiles(has(paths), undefined).files).toContain('1_Pooling/config.json');
    expect(pickLayoutFiles(has(paths), undefined, { onnxFile: 'onnx/model_fp16.onnx' }).onnx).toBe(
      'onnx/model_fp16.onnx',
    );
  });

  it('says what a folder that is no model lacks', () => {
    const message = (paths: string[], onnxFile?: string) => {
      try {
        pickLayoutFiles(has(paths), undefined, { onnxFile, what: 'The folder “x”' });
        return '';
      } catch (err) {
        return (err as Error).message;
      }
    };
    expect(message(['tokenizer.json', 'onnx/model.onnx'])).toBe(
      'The folder “x” has no config.json (the model config): it is not a model in the transformers.js layout',
    );
    expect(message(['config.json', 'onnx/model.onnx'])).toMatch(/has no tokenizer\.json/);
    expect(message(['config.json', 'tokenizer.json'])).toMatch(
      /has no onnx\/model\.onnx or model\.onnx or onnx\/model_quantized\.onnx or model_quantized\.onnx \(the ONNX export\)/,
    );
    expect(message(['config.json', 'tokenizer.json', 'onnx/model.onnx'], '../model.onnx')).toMatch(
      /not a path inside the model's folder/,
    );
  });
});

type LoadHook = (
  this: { emitFile: (f: { fileName: string; source: Buffer }) => string },
  id: string,
) => string | null;

function plugin(dir: string | undefined, command: 'build' | 'serve') {
  const p: Plugin = quarryEmbedModel(dir);
  (p.configResolved as (c: { command: string; base: string }) => void)({ command, base: './' });
  const emitted: Array<{ fileName: string; source: Buffer }> = [];
  const load = (id: string) =>
    (p.load as unknown as LoadHook).call(
      { emitFile: (f) => (emitted.push(f), `ref${emitted.length}`) },
      (p.resolveId as (s: string) => string | null)(id)!,
    );
  return { load, emitted };
}

describe('QUARRY_EMBED_MODEL at build time', () => {
  it('plans the int8 export when there is one, and fails the build on a folder that is no model', () => {
    const dir = modelDir({ 'onnx/model_quantized.onnx': tinyGraph({ shift: 2 }) }, 'my-model');
    const plan = planEmbedModel(dir);
    expect(plan.name).toBe('my-model');
    expect(plan.onnxFile).toBe('onnx/model_quantized.onnx');
    expect(plan.files.map((f) => f.path)).toEqual([
      'config.json',
      'tokenizer.json',
      'onnx/model_quantized.onnx',
    ]);
    expect(plan.files[2].bytes).toBe(fs.statSync(path.join(dir, 'onnx/model_quantized.onnx')).size);
    expect(planEmbedModel(dir, 'onnx/model.onnx').onnxFile).toBe('onnx/model.onnx');
    expect(() => planEmbedModel(modelDir({ 'config.json': null }))).toThrow(
      /^QUARRY_EMBED_MODEL=.*: the folder has no config\.json/,
    );
    expect(() => planEmbedModel(path.join(dir, 'nope'))).toThrow(/no such directory/);
  });

  it('chooses the files core chooses for the app and the CLI (the Vite config has its own copy)', () => {
    const pooling = { word_embedding_dimension: 4, pooling_mode_cls_token: true };
    const folders: Parameters<typeof writeModelDir>[0][] = [
      {},
      { 'onnx/model_quantized.onnx': tinyGraph() },
      { 'onnx/model.onnx': null, 'model_quantized.onnx': tinyGraph() },
      {
        'tokenizer_config.json': {},
        'sentence_bert_config.json': { max_seq_length: 8 },
        '1_Pooling/config.json': pooling,
      },
      {
        'modules.json': [{ idx: 1, name: '1', path: 'pool/', type: 'sentence_transformers.models.Pooling' }],
        'pool/config.json': pooling,
        '1_Pooling/config.json': pooling,
      },
    ];
    for (const files of folders) {
      const dir = modelDir(files);
      const has = (p: string) => fs.existsSync(path.join(dir, p)) && fs.statSync(path.join(dir, p)).isFile();
      const modules = has('modules.json')
        ? JSON.parse(fs.readFileSync(path.join(dir, 'modules.json'), 'utf8'))
        : undefined;
      const core = pickLayoutFiles(has, modules, { prefer: 'quantized' });
      const plan = planEmbedModel(dir);
      expect(plan.onnxFile).toBe(core.onnx);
      expect(plan.files.map((f) => f.path)).toEqual(core.files);
    }
  });

  it('emits the files as hashed assets under assets/embed-model/ and names them in the virtual module', () => {
    const dir = modelDir({}, 'deployed');
    const { load, emitted } = plugin(dir, 'build');
    const code = load('virtual:quarry-embed-model')!;
    expect(emitted.map((f) => f.fileName)).toEqual([
      expect.stringMatching(/^assets\/embed-model\/config-[0-9a-f]{10}\.json$/),
      expect.stringMatching(/^assets\/embed-model\/tokenizer-[0-9a-f]{10}\.json$/),
      expect.stringMatching(/^assets\/embed-model\/onnx\/model-[0-9a-f]{10}\.onnx$/),
    ]);
    expect(emitted[2].source.equals(fs.readFileSync(path.join(dir, 'onnx/model.onnx')))).toBe(true);
    expect(code).toContain('name: "deployed"');
    expect(code).toContain('onnxFile: "onnx/model.onnx"');
    expect(code).toContain('"onnx/model.onnx": { url: import.meta.ROLLUP_FILE_URL_ref3');
    const info = load('virtual:quarry-embed-model-info')!;
    const total = emitted.reduce((a, f) => a + f.source.length, 0);
    expect(info).toBe(`export default ${JSON.stringify({ name: 'deployed', bytes: total })};\n`);
  });

  it('without the variable: null, nothing emitted; the dev server serves the folder by path', () => {
    const none = plugin(undefined, 'build');
    expect(none.load('virtual:quarry-embed-model')).toBe('export default null;\n');
    expect(none.load('virtual:quarry-embed-model-info')).toBe('export default null;\n');
    expect(none.emitted).toEqual([]);
    const dev = plugin(modelDir({}), 'serve');
    expect(dev.load('virtual:quarry-embed-model')).toContain(
      '"onnx/model.onnx": { url: "/@quarry-embed-model/onnx/model.onnx"',
    );
    expect(dev.emitted).toEqual([]);
  });
});
