/**
 * analyze/: what a repository is made of, as plain data (no DOM, no I/O beyond FileSource).
 *   components.ts  React components with the parser, and where each is used (find_components)
 *   routes.ts      Next.js routes: App Router, Pages Router, every app of a monorepo (get_routes)
 *   features.ts    feature status and the flag inventory (feature_status), over
 *   flags.ts       flag SDK calls, env-var and config-object flags (flag-sdks.ts: the SDKs),
 *   names.ts       feature-name spellings, and
 *   files.ts       file categories (code / test / docs / config) and comment ranges
 *   parsers.ts     web-tree-sitter for TS / TSX / JS, sharing the chunker's runtime
 *   scan.ts        one walk + read pass, with per-file results memoised by content
 *   graph.ts       import-graph analysis for explore: cycles (runtime, type-only, dynamic), hubs, orphans
 *   imports-js.ts  TS/JS imports of a file and their resolution (relative, tsconfig paths, workspaces)
 *   imports-other.ts  Python, Go, Rust and C/C++ imports and their resolution
 *   manifests.ts   every ecosystem's manifest as plain data (dependencies, scripts, entry points,
 *                  workspaces, tsconfig paths), with manifests-python.ts, manifests-jvm.ts,
 *                  manifest-record.ts, toml.ts (smol-toml) and manifest-text.ts (JSONC, XML)
 * Hosts (CLI, MCP, worker) hand the parsers in through ToolContext.parsers:
 *   `{ parsers: () => sharedSourceParsers(grammarLoader) }`.
 * The UI's Features view can list every flag with `flagInventory(workspace, parsers)`, or
 * call feature_status with `includeInventory: true`.
 */
export { findComponents, type FoundComponent, type ComponentDef, type ComponentKind } from './components';
export {
  discoverNextApps,
  routesOfApp,
  appRouteOf,
  pagesRouteOf,
  type RouteEntry,
  type RouteType,
  type NextApp,
} from './routes';
export {
  featureStatus,
  flagInventory,
  type FeatureStatus,
  type FeatureReference,
  type FlagInfo,
  type FlagInventory,
} from './features';
export { SDK_LABELS, SDK_ORDER, type FlagSdk } from './flag-sdks';
export { featureWords, nameVariants, compileNameMatcher } from './names';
export { createSourceParsers, sharedSourceParsers, scriptLanguageOf, type SourceParsers } from './parsers';
