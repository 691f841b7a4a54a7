// Types for boundaries.js (plain JavaScript, so ESLint loads it without a build step).
import type { ESLint, Rule } from 'eslint';

export interface LayerSpec {
  /** folders (ending in '/') or files under the root; the longest match wins */
  paths: string[];
  /** layers this one may import */
  allow: string[];
  /** for an allowed layer, the only files of it this one may import (paths under the root) */
  only?: Record<string, string[]>;
  /** bare imports allowed ('any', the default, or a list of package names) */
  packages?: 'any' | string[];
  /** may import Node builtins (and is Node-only) */
  node?: boolean;
  /** ships in the browser bundle: its import closure must not reach Node */
  browser?: boolean;
}

export interface LayerOptions {
  /** the folder the layer paths are relative to, from the cwd (default 'src') */
  root?: string;
  layers: Record<string, LayerSpec>;
  /** regular expressions on the path under root: files exempt as importers (tests) */
  exempt?: string[];
}

export interface Edge {
  spec: string;
  kind: 'static' | 'dynamic' | 'require' | 'worker';
  typeOnly: boolean;
  /** inside a function: loaded only if that code runs */
  inFunction?: boolean;
  node: unknown;
}

declare const plugin: ESLint.Plugin & {
  rules: Record<'layers' | 'browser-closure' | 'no-computed-module-loading', Rule.RuleModule>;
};
export default plugin;
export function collectEdges(ast: unknown): Edge[];
export function resolveRelative(fromFile: string, spec: string): string | null;
export function isNodeBuiltin(spec: string, cwd: string): boolean;
