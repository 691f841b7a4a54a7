/**
 * Hand-written ranking expectations over @babel/core@8.1.3's lib/ (a pinned dev dependency).
 *
 * Written by reading the code in node_modules/@babel/core/lib, never from a ranker's output:
 * for each query, the chunk (file, and where it is clear, symbol) a developer who typed it
 * wants first, and a few more that belong in the top K. Symbol names are the chunker's
 * (`Class.method`, bundler suffixes such as `loadPartialConfig$1` kept); a `Want` without a
 * symbol accepts any chunk of that file.
 *
 * When a ranker honestly misses a case, the expectation stays and the case gets
 * `knownMiss: { <ranker>: 'why' }`; the test fails when a known miss starts passing (remove
 * the mark) or when an unmarked case stops passing (a regression). Do not edit an
 * expectation to match a ranker.
 */

export const TOP_K = 5;

export type RankerId = 'bm25' | 'people';

export interface Want {
  /** path relative to @babel/core/lib */
  path: string;
  symbol?: string;
}

export interface GoldenCase {
  query: string;
  /** why these chunks, from reading the code */
  why: string;
  /** should be the first hit */
  first: Want;
  /** should also be in the top TOP_K (any order) */
  alsoTop?: Want[];
  /** rankers that miss this case today, each with the reason */
  knownMiss?: Partial<Record<RankerId, string>>;
}

export const GOLDEN_CASES: GoldenCase[] = [
  {
    query: 'transformFileSync',
    why:
      'transform-file.js holds the Node implementation (transformFileRunner: loadConfig, readFile, run); ' +
      'transform-file-browser.js has a stub of the same name that throws, index.d.ts its declaration',
    first: { path: 'transform-file.js', symbol: 'transformFileSync' },
    alsoTop: [
      { path: 'transform-file-browser.js', symbol: 'transformFileSync' },
      { path: 'index.d.ts', symbol: 'transformFileSync' },
    ],
  },
  {
    query: 'transform file sync',
    why: 'the same function asked for in words',
    first: { path: 'transform-file.js', symbol: 'transformFileSync' },
    alsoTop: [
      { path: 'transform-file-browser.js', symbol: 'transformFileSync' },
      { path: 'index.d.ts', symbol: 'transformFileSync' },
    ],
    knownMiss: {
      bm25: "the contract tokenizer keeps identifiers whole (transformfilesync): only 'sync' matches the answer, while index-shared.js#transform repeats 'transform'",
    },
  },
  {
    query: 'stack trace limit',
    why: 'raiseStackTraceLimit lifts Error.stackTraceLimit to at least 50 while Babel runs; restoreStackTraceLimit puts it back',
    first: { path: 'errors/rewrite-stack-trace.js', symbol: 'raiseStackTraceLimit' },
    alsoTop: [{ path: 'errors/rewrite-stack-trace.js', symbol: 'restoreStackTraceLimit' }],
    knownMiss: {
      bm25: "the contract tokenizer keeps identifiers whole: the answers say stackTraceLimit only inside identifiers; formatStack has 'stack' and 'trace' as words",
    },
  },
  {
    query: 'weak cache',
    why: 'makeWeakCache builds a cached function keyed by a WeakMap; makeWeakCacheSync is its synchronous form',
    first: { path: 'caching-shared.js', symbol: 'makeWeakCache' },
    alsoTop: [{ path: 'caching-shared.js', symbol: 'makeWeakCacheSync' }],
    knownMiss: {
      bm25: "the contract tokenizer keeps identifiers whole: 'weak' occurs only inside makeWeakCache/WeakMap, so 'cache' alone ranks chunks that repeat it",
      people:
        "makeWeakCacheSync's body names makeWeakCache again, so the wrapper edges out the function it wraps (22.7 vs 21.7)",
    },
  },
  {
    query: 'cache configurator',
    why:
      'CacheConfigurator is the class behind api.cache (forever/never/using/invalidate); makeSimpleConfigurator ' +
      'wraps one into the callable api.cache, whose type index.d.ts calls SimpleCacheConfigurator',
    first: { path: 'caching-shared.js', symbol: 'CacheConfigurator' },
    alsoTop: [
      { path: 'caching-shared.js', symbol: 'makeSimpleConfigurator' },
      { path: 'index.d.ts', symbol: 'SimpleCacheConfigurator' },
    ],
    knownMiss: {
      bm25: "the contract tokenizer keeps identifiers whole: 'configurator' never stands alone, so the answers match on 'cache' alone",
    },
  },
  {
    query: 'merge options',
    why: 'mergeOptions merges one options object into another (parserOpts/generatorOpts/assumptions field by field through mergeDefaultFields)',
    first: { path: 'caching-shared.js', symbol: 'mergeOptions' },
    alsoTop: [{ path: 'caching-shared.js', symbol: 'mergeDefaultFields' }],
    knownMiss: {
      bm25: "the contract tokenizer keeps identifiers whole: mergeOptions/mergeDefaultFields contain neither 'merge' nor 'options' as a word",
    },
  },
  {
    query: 'validate preset',
    why: 'validatePreset checks a preset used without a filename (through validateIfOptionNeedsFilename); loadPresetDescriptor calls it',
    first: { path: 'index-shared.js', symbol: 'validatePreset' },
    alsoTop: [
      { path: 'index-shared.js', symbol: 'validateIfOptionNeedsFilename' },
      { path: 'index-shared.js', symbol: 'loadPresetDescriptor' },
    ],
    knownMiss: {
      bm25: "the contract tokenizer keeps identifiers whole (validatepreset); loadPresetDescriptor has 'preset' as a word more often",
    },
  },
  {
    query: 'resolve plugin',
    why:
      "the public resolvePlugin is index-shared.js's arrow (config/files' resolvePlugin is a .bind and no chunk); " +
      'the resolution itself is resolveStandardizedName; the browser build has a resolvePlugin stub',
    first: { path: 'index-shared.js', symbol: 'resolvePlugin' },
    alsoTop: [
      { path: 'config/files/index.js', symbol: 'resolveStandardizedName' },
      { path: 'config/files/index-browser.js', symbol: 'resolvePlugin' },
    ],
    knownMiss: {
      bm25: "the contract tokenizer keeps identifiers whole (resolveplugin); a bare 'resolve' ranks Lock's Promise resolve first",
    },
  },
  {
    query: 'code frame error',
    why: 'File.buildCodeFrameError appends a codeFrameColumns frame to the message; PluginPass.buildCodeFrameError delegates to it',
    first: { path: 'index-shared.js', symbol: 'File.buildCodeFrameError' },
    alsoTop: [{ path: 'index-shared.js', symbol: 'PluginPass.buildCodeFrameError' }],
    knownMiss: {
      bm25: "the contract tokenizer keeps identifiers whole: 'frame' never stands alone (buildCodeFrameError, codeFrameColumns)",
      people:
        'length normalisation: the 11-token delegating PluginPass method and the index.d.ts declarations outscore the 91-token implementation',
    },
  },
  {
    query: 'parseAsync',
    why: 'index-shared.js defines parseAsync (parseRunner.async); index.d.ts declares it',
    first: { path: 'index-shared.js', symbol: 'parseAsync' },
    alsoTop: [{ path: 'index.d.ts', symbol: 'parseAsync' }],
  },
  {
    query: 'block hoist',
    why:
      'loadBlockHoistPlugin creates the internal.blockHoist plugin; performHoisting reorders a body by priority(), ' +
      'which reads node._blockHoist',
    first: { path: 'index-shared.js', symbol: 'loadBlockHoistPlugin' },
    alsoTop: [
      { path: 'index-shared.js', symbol: 'performHoisting' },
      { path: 'index-shared.js', symbol: 'priority' },
    ],
    knownMiss: {
      bm25: "the contract tokenizer keeps identifiers whole: 'hoist' never stands alone (loadBlockHoistPlugin, _blockHoist, performHoisting)",
      people: "no stemming: performHoisting splits into 'hoisting', not 'hoist', and its body says neither",
    },
  },
  {
    query: 'input source map file',
    why:
      'readInputSourceMapFile reads an external input source map (getInputMapPath keeps it inside the package); ' +
      'normalizeFile is where an inline or external input map is picked up',
    first: { path: 'transformation/read-input-source-map-file.js', symbol: 'readInputSourceMapFile' },
    alsoTop: [
      { path: 'transformation/read-input-source-map-file.js', symbol: 'getInputMapPath' },
      { path: 'index-shared.js', symbol: 'normalizeFile' },
    ],
    knownMiss: {
      bm25: "the contract tokenizer keeps identifiers whole: only the browser stub's error message has the words; the real reader has them inside identifiers",
      people:
        'normalizeFile (156 tokens) is outscored by short chunks named after input source maps (index.d.ts InputSourceMap types, assertInputSourceMap)',
    },
  },
  {
    query: 'missing plugin message',
    why: 'generateMissingPluginMessage writes the "Support for the experimental syntax ... isn\'t currently enabled" help; parser calls it',
    first: { path: 'index-shared.js', symbol: 'generateMissingPluginMessage' },
    alsoTop: [{ path: 'index-shared.js', symbol: 'parser' }],
    knownMiss: {
      bm25: "the contract tokenizer keeps identifiers whole (missingPluginName, helpMessage); resolveAlternativesHelper's text says 'missing plugin' in words",
    },
  },
  {
    query: 'babelrc roots',
    why:
      'babelrcLoadEnabled decides from babelrcRoots whether a package may load its .babelrc; buildRootChain reads ' +
      'babelrcRoots from the config file; assertBabelrcSearch validates the option',
    first: { path: 'index-shared.js', symbol: 'babelrcLoadEnabled' },
    alsoTop: [
      { path: 'index-shared.js', symbol: 'buildRootChain' },
      { path: 'index-shared.js', symbol: 'assertBabelrcSearch' },
    ],
    knownMiss: {
      bm25: "the contract tokenizer keeps identifiers whole (babelrcRoots): 'roots' never stands alone, and PartialConfig has the most 'babelrc' words",
      people:
        'since unexported object values are chunks (issue 15), BABELRC_VALIDATORS (the option table: babelrcRoots: assertBabelrcSearch) ' +
        'and validateBabelrcFile hold more babelrc words and push assertBabelrcSearch to 6th',
    },
  },
  {
    query: 'root mode upward',
    why: 'resolveRootMode handles rootMode "root" / "upward" / "upward-optional" with findConfigUpwards; assertRootMode validates the value',
    first: { path: 'index-shared.js', symbol: 'resolveRootMode' },
    alsoTop: [
      { path: 'config/files/index.js', symbol: 'findConfigUpwards' },
      { path: 'index-shared.js', symbol: 'assertRootMode' },
    ],
    knownMiss: {
      bm25: "the contract tokenizer keeps identifiers whole: the 6-token index.d.ts RootMode type has 'root' and 'upward' (string literals) and wins on length; findConfigUpwards says 'upwards'",
      people:
        "the 6-token index.d.ts RootMode type edges out resolveRootMode (26.4 vs 26.3); no stemming: findConfigUpwards says 'upwards', not 'upward'",
    },
  },
  {
    query: 'deep clone',
    why: 'cloneDeep (entry) and deepClone (the recursion, with its cycle check) in index-shared.js clone an input AST',
    first: { path: 'index-shared.js' },
    alsoTop: [
      { path: 'index-shared.js', symbol: 'cloneDeep' },
      { path: 'index-shared.js', symbol: 'deepClone' },
    ],
    knownMiss: {
      bm25: "the contract tokenizer keeps identifiers whole: no chunk has 'deep' or 'clone' as a word (cloneDeep, deepClone), so nothing is returned",
    },
  },
  {
    query: 'external helpers',
    why: 'buildExternalHelpers generates the helpers bundle in global/module/umd/var form; buildHelpers fills its body',
    first: { path: 'index-shared.js', symbol: 'buildExternalHelpers' },
    alsoTop: [{ path: 'index-shared.js', symbol: 'buildHelpers' }],
    knownMiss: {
      bm25: "the contract tokenizer keeps identifiers whole (buildExternalHelpers); File.availableHelper has 'helpers' as a word (helpers.isInternal)",
    },
  },
  {
    query: 'assumptions',
    why: 'assertAssumptions is the only code that checks assumption names and values (unknown name, non-boolean, false in a preset)',
    first: { path: 'index-shared.js', symbol: 'assertAssumptions' },
    knownMiss: {
      bm25: "the contract tokenizer keeps identifiers whole: assertAssumptions says assumptionsNames and 'assumption', never the word; the short index.d.ts Assumptions type wins",
      people: 'the exact-symbol boost goes to the index.d.ts type alias named Assumptions',
    },
  },
  {
    query: 'package json',
    why: 'findPackageData walks up from a file reading package.json (readConfigPackage) until it finds a package',
    first: { path: 'config/files/index.js', symbol: 'findPackageData' },
    knownMiss: {
      bm25: "the contract tokenizer keeps identifiers whole: findPackageData names PACKAGE_FILENAME, a constant outside the chunk; resolveAlternativesHelper's message says package.json",
    },
  },
  {
    query: 'babelignore file',
    why: 'findRelativeConfig looks for .babelignore (BABELIGNORE_FILENAME) beside each .babelrc directory; PartialConfig reports its path as babelignore',
    first: { path: 'config/files/index.js', symbol: 'findRelativeConfig' },
    alsoTop: [{ path: 'index-shared.js', symbol: 'PartialConfig' }],
    knownMiss: {
      bm25: 'the contract tokenizer keeps identifiers whole: findRelativeConfig names BABELIGNORE_FILENAME (one token); PartialConfig has this.babelignore',
      people:
        "findRelativeConfig reaches 'babelignore' only as a part of BABELIGNORE_FILENAME (weight 0.7) while PartialConfig has the word twice",
    },
  },
  {
    query: 'extends chain',
    why: 'mergeExtendsChain loads the config named by "extends" and merges its chain, throwing on a cycle',
    first: { path: 'index-shared.js', symbol: 'mergeExtendsChain' },
  },
  {
    query: 'BABEL_ENV',
    why: 'getEnv returns BABEL_ENV || NODE_ENV || the default',
    first: { path: 'index-shared.js', symbol: 'getEnv' },
  },
  {
    query: 'invalid plugin property',
    why: 'validatePluginObject throws "<key> is not a valid Plugin property" for keys outside VALIDATORS',
    first: { path: 'index-shared.js', symbol: 'validatePluginObject' },
  },
  {
    query: 'duplicate plugin',
    why: 'assertNoDuplicates throws "Duplicate plugin/preset detected"; dedupDescriptors collapses same-name repeats across the chain',
    first: { path: 'index-shared.js', symbol: 'assertNoDuplicates' },
    alsoTop: [{ path: 'index-shared.js', symbol: 'dedupDescriptors' }],
    knownMiss: {
      bm25: "dedupDescriptors says neither 'duplicate' nor 'plugin' (it says dedup)",
      people:
        "no stemming: assertNoDuplicates splits into 'duplicates', so the name boost goes to assertNoDuplicateSourcemap; dedupDescriptors says neither word",
    },
  },
  {
    query: 'load config file',
    why:
      'config/files/index.js loads config files: loadConfig resolves a named config and reads it, readConfig ' +
      'dispatches on the extension (code or JSON5)',
    first: { path: 'config/files/index.js' },
    alsoTop: [
      { path: 'config/files/index.js', symbol: 'loadConfig' },
      { path: 'config/files/index.js', symbol: 'readConfig' },
    ],
    knownMiss: {
      bm25: "the contract tokenizer keeps identifiers whole (loadconfig, readconfig): run has 'config' and 'file' as words more often",
      people:
        "every load*Config* API (loadPartialConfigSync/Async, loadPartialConfig$1, ...) matches 'load' and 'config' in its name; config/files/index.js#loadConfig comes 8th",
    },
  },
  {
    query: 'partial config',
    why: 'index-shared.js implements loadPartialConfig: loadPartialConfig$1 builds a PartialConfig from loadPrivatePartialConfig',
    first: { path: 'index-shared.js' },
    alsoTop: [
      { path: 'index-shared.js', symbol: 'PartialConfig' },
      { path: 'index-shared.js', symbol: 'loadPartialConfig$1' },
      { path: 'index-shared.js', symbol: 'loadPrivatePartialConfig' },
    ],
    knownMiss: {
      bm25: "the contract tokenizer keeps identifiers whole: 'partial' never stands alone, so the query matches on 'config' alone",
      people:
        'the PartialConfig classes (exact-symbol boost) and short index.d.ts declarations fill the top 5; loadPartialConfig$1 and loadPrivatePartialConfig are longer',
    },
  },
  {
    query: 'buildCodeFrameError',
    why: 'File.buildCodeFrameError is the implementation; PluginPass.buildCodeFrameError delegates to it; index.d.ts declares both',
    first: { path: 'index-shared.js', symbol: 'File.buildCodeFrameError' },
    alsoTop: [
      { path: 'index-shared.js', symbol: 'PluginPass.buildCodeFrameError' },
      { path: 'index.d.ts', symbol: 'File.buildCodeFrameError' },
    ],
    knownMiss: {
      bm25: 'length normalisation: the one-line PluginPass delegate and the index.d.ts declarations outscore the 91-token implementation',
      people:
        'length normalisation: the one-line PluginPass delegate and the index.d.ts declarations outscore the 91-token implementation',
    },
  },
  {
    query: 'loadPartialConfigSync',
    why: 'index-shared.js defines loadPartialConfigSync (loadPartialConfigRunner.sync); index.d.ts declares it',
    first: { path: 'index-shared.js', symbol: 'loadPartialConfigSync' },
    alsoTop: [{ path: 'index.d.ts', symbol: 'loadPartialConfigSync' }],
  },
];
