/**
 * Feature flags in JavaScript / TypeScript, found with the parser.
 *
 * SDKs, recognised by their modules and their flag-evaluating calls:
 *   launchdarkly  launchdarkly-*, @launchdarkly/*: variation / boolVariation / ...Detail
 *                 ('key'), useFlags() destructured or read as `flags.key`
 *   unleash       unleash-client, unleash-proxy-client, @unleash/*: isEnabled, getVariant,
 *                 useFlag, useVariant
 *   growthbook    @growthbook/*: isOn, isOff, getFeatureValue, evalFeature, feature,
 *                 useFeatureIsOn, useFeatureValue, useFeature, <IfFeatureEnabled feature>,
 *                 <FeatureString feature>
 *   posthog       posthog-js, posthog-node, posthog-react-native: isFeatureEnabled,
 *                 getFeatureFlag, getFeatureFlagPayload, useFeatureFlagEnabled,
 *                 useFeatureFlagVariantKey, useFeatureFlagPayload, <PostHogFeature flag>
 *   statsig       statsig-*, @statsig/*: checkGate, getFeatureGate, useGate, useGateValue,
 *                 useFeatureGate, getExperiment, useExperiment, getDynamicConfig,
 *                 useDynamicConfig, getLayer, useLayer (the first string argument: node's
 *                 checkGate(user, 'gate') too)
 *   flagsmith     flagsmith, flagsmith-nodejs, @flagsmith/*: hasFeature, getValue,
 *                 isFeatureEnabled, getFeatureValue, useFlags(['a', 'b'])
 *   openfeature   @openfeature/*: get{Boolean,String,Number,Object}{Value,Details},
 *                 use{Boolean,String,Number,Object}Flag{Value,Details}, useFlag
 *   vercel        flags/*, @vercel/flags/*: `flag({ key: 'x', ... })` defines a flag; calls
 *                 of the variable it is assigned to (in any file, by name) check it
 * A call counts when its SDK is known from (1) the callee or its receiver being imported
 * from, or created by a call on, an SDK module; (2) a method name only one SDK uses and no
 * other library would (`variation`, `checkGate`, `getBooleanValue`; not `isEnabled`,
 * `getValue`, `feature`, `isOn`...); (3) the receiver's name (`unleash`,
 * `posthog`, `ldClient`, `gb`...); or (4) the file importing exactly one SDK. The flag key is
 * the first string-literal argument (a template without substitutions counts).
 * Plain flags:
 *   env     process.env.X, process.env['X'], import.meta.env.X, Bun.env.X, Deno.env.get('X'),
 *           `const { X } = process.env`, where X has a flag word (FEATURE, FLAG, FF, ENABLE,
 *           ENABLED, DISABLE, DISABLED, TOGGLE, EXPERIMENT, EXPERIMENTAL): NEXT_PUBLIC_FEATURE_X,
 *           ENABLE_X, X_ENABLED; and lines `X=...` of .env* files (definitions)
 *   config  member reads of an object named features / featureFlags / feature_flags /
 *           featureToggles / feature_toggles (any case, also as the last part:
 *           `config.features.x`, `features['x']`; array members such as `.length` excluded),
 *           and the keys of such an object literal or `features: {...}` property (definitions).
 * The SDKs' names, modules and methods, and which SDK a call belongs to: flag-sdks.ts.
 */
import type { Node } from 'web-tree-sitter';
import { JSX_FLAG_COMPONENTS, sdkOfCall, sdkOfModule, type FlagSdk, type SdkId } from './flag-sdks';
import { callArguments, calleeName, lineOf, rootIdentifier, stringValue, unwrap, visit } from './syntax';

export interface FlagRef {
  name: string;
  sdk: FlagSdk;
  line: number;
  /** 'definition': where the flag is declared (flag({key}), a flags object key, a .env line). */
  kind: 'check' | 'definition';
}

export interface FileFlags {
  refs: FlagRef[];
  /** Vercel flags declared here: variable name -> key. */
  vercelFlags: Record<string, string>;
  /** Plain calls of identifiers (callee name -> lines), for resolving Vercel flag variables. */
  calls: Record<string, number[]>;
}

const ENV_FLAG_WORDS = new Set([
  'FEATURE',
  'FEATURES',
  'FLAG',
  'FLAGS',
  'FF',
  'ENABLE',
  'ENABLED',
  'DISABLE',
  'DISABLED',
  'TOGGLE',
  'EXPERIMENT',
  'EXPERIMENTAL',
]);

/** Is an environment variable name a flag (NEXT_PUBLIC_FEATURE_X, ENABLE_X, X_ENABLED...)? */
export function isFlagEnvName(name: string): boolean {
  return name
    .toUpperCase()
    .split(/[^A-Z0-9]+/)
    .some((w) => ENV_FLAG_WORDS.has(w));
}

/**
 * Objects whose members are flags. Bare `flags` / `toggles` are left out on purpose: they
 * name command-line options, regex flags and bit sets far more often than feature flags.
 */
const CONFIG_OBJECT = /^(features|featureflags|feature_flags|featuretoggles|feature_toggles)$/i;
/** Members of arrays, maps and objects that are never flag names (`geojson.features.length`). */
const NOT_FLAG_KEYS = new Set([
  'length',
  'map',
  'filter',
  'forEach',
  'reduce',
  'find',
  'findIndex',
  'some',
  'every',
  'includes',
  'indexOf',
  'push',
  'pop',
  'shift',
  'slice',
  'splice',
  'concat',
  'join',
  'sort',
  'keys',
  'values',
  'entries',
  'size',
  'has',
  'get',
  'set',
  'add',
  'delete',
  'clear',
  'toString',
  'valueOf',
  'constructor',
  'prototype',
  'then',
]);

/** `X=...` lines of a .env file: flag definitions. */
export function envFileFlags(text: string): FlagRef[] {
  const out: FlagRef[] = [];
  const lines = text.split('\n');
  lines.forEach((line, i) => {
    const m = /^\s*(?:export\s+)?([A-Za-z_][A-Za-z0-9_]*)\s*=/.exec(line);
    if (m && isFlagEnvName(m[1])) out.push({ name: m[1], sdk: 'env', line: i + 1, kind: 'definition' });
  });
  return out;
}

export function isEnvFile(path: string): boolean {
  const base = path.slice(path.lastIndexOf('/') + 1);
  return /^\.env(\.|$)/.test(base) || base.endsWith('.env');
}

/** What the passes over one file learn, and the references they find. */
interface FlagScan {
  refs: FlagRef[];
  vercelFlags: Record<string, string>;
  calls: Map<string, Set<number>>;
  // local name -> SDK, for names imported from an SDK module or bound to an SDK value
  bound: Map<string, SdkId>;
  // local names holding LaunchDarkly's useFlags() result (read as flags.key)
  flagObjects: Map<string, SdkId>;
  importedSdks: Set<SdkId>;
  addRef(name: string, sdk: FlagSdk, node: Node, kind?: FlagRef['kind']): void;
}

/** Flags referenced in one parsed script file. */
export function flagsInTree(root: Node): FileFlags {
  const refs: FlagRef[] = [];
  const scan: FlagScan = {
    refs,
    vercelFlags: {},
    calls: new Map(),
    bound: new Map(),
    flagObjects: new Map(),
    importedSdks: new Set(),
    addRef: (name, sdk, node, kind = 'check') => {
      if (name) refs.push({ name, sdk, line: lineOf(node), kind });
    },
  };
  // Pass 1: imports and requires at any depth (they are few and cheap to find).
  visit(root, (node) => bindImports(scan, node));
  // Pass 2: bindings from SDK values (const client = LaunchDarkly.init(...), const gb = new GrowthBook()).
  visit(root, (node) => bindSdkValues(scan, node));
  // Pass 3: evaluations, env reads, config objects.
  visit(root, (node, parent, field) => {
    switch (node.type) {
      case 'import_statement':
        return false;
      case 'call_expression':
        callRefs(scan, node, parent, field);
        return true;
      case 'jsx_opening_element':
      case 'jsx_self_closing_element':
        jsxRefs(scan, node);
        return true;
      case 'member_expression':
      case 'subscript_expression':
        memberRefs(scan, node, parent, field);
        return true;
      case 'variable_declarator':
        declaratorRefs(scan, node);
        return true;
      case 'pair': {
        // { features: { x: true } } inside a config object
        const key = node.childForFieldName('key');
        const value = node.childForFieldName('value');
        const keyName = key ? (stringValue(key) ?? key.text) : '';
        if (value && CONFIG_OBJECT.test(keyName)) {
          const v = unwrap(value);
          if (v.type === 'object')
            for (const [k, kn] of objectKeys(v)) scan.addRef(k, 'config', kn, 'definition');
        }
        return true;
      }
    }
    return true;
  });

  // calls of Vercel flag variables in this file
  const callsOut: Record<string, number[]> = {};
  for (const [name, lines] of scan.calls) callsOut[name] = [...lines].sort((a, b) => a - b);
  return { refs, vercelFlags: scan.vercelFlags, calls: callsOut };
}

/** Pass 1: names imported or required from an SDK module. */
function bindImports({ bound, importedSdks }: FlagScan, node: Node): boolean {
  if (node.type === 'import_statement') {
    const src = stringValue(node.childForFieldName('source'));
    const sdk = src ? sdkOfModule(src) : null;
    if (!sdk) return false;
    importedSdks.add(sdk);
    visit(node, (n, parent, field) => {
      if (
        n.type === 'identifier' &&
        (parent?.type === 'import_clause' ||
          parent?.type === 'namespace_import' ||
          (parent?.type === 'import_specifier' && (field === 'alias' || !parent.childForFieldName('alias'))))
      ) {
        bound.set(n.text, sdk);
      }
    });
    return false;
  }
  if (node.type === 'variable_declarator') {
    const value = node.childForFieldName('value');
    const name = node.childForFieldName('name');
    if (!value || !name) return true;
    const v = unwrap(value);
    // const x = require('sdk') / await import('sdk')
    if (v.type === 'call_expression' && calleeName(v) === 'require') {
      const src = stringValue(callArguments(v)[0] ?? null);
      const sdk = src ? sdkOfModule(src) : null;
      if (sdk) {
        importedSdks.add(sdk);
        bindPattern(name, sdk, bound);
      }
    }
  }
  return true;
}

/** Which SDK's useFlags() a file without a bound `useFlags` calls. */
function useFlagsOwner(importedSdks: Set<SdkId>): SdkId {
  return importedSdks.has('flagsmith') && !importedSdks.has('launchdarkly') ? 'flagsmith' : 'launchdarkly';
}

/** Pass 2: variables bound to SDK values, and the variables holding useFlags()'s result. */
function bindSdkValues({ bound, flagObjects, importedSdks }: FlagScan, node: Node): boolean {
  if (node.type !== 'variable_declarator') return true;
  const name = node.childForFieldName('name');
  const value = node.childForFieldName('value');
  if (!name || !value) return true;
  const v = unwrap(value);
  const rootName = rootIdentifier(v);
  const sdk = rootName ? bound.get(rootName) : undefined;
  const inner = v.type === 'await_expression' && v.firstNamedChild ? unwrap(v.firstNamedChild) : v;
  const call = inner.type === 'call_expression' ? inner : null;
  const method = call ? calleeName(call) : null;
  if (method === 'useFlags' && call) {
    const owner = sdk ?? useFlagsOwner(importedSdks);
    if (name.type === 'identifier') flagObjects.set(name.text, owner);
    return true;
  }
  if (sdk && name.type === 'identifier' && !bound.has(name.text)) bound.set(name.text, sdk);
  return true;
}

/** Pass 3, a call: an SDK evaluation, Flagsmith's useFlags([...]), Vercel's flag({ key }), Deno.env.get. */
function callRefs(scan: FlagScan, node: Node, parent: Node | null, field: string | null): void {
  const { bound, calls, importedSdks, addRef } = scan;
  const method = calleeName(node);
  if (!method) return;
  const callee = unwrap(node.childForFieldName('function')!);
  if (callee.type === 'identifier') {
    let s = calls.get(method);
    if (!s) calls.set(method, (s = new Set()));
    s.add(lineOf(node));
  }
  const args = callArguments(node);
  if (method === 'useFlags') {
    // Flagsmith: useFlags(['a', 'b']); LaunchDarkly: useFlags() read below.
    const list = args[0] ? unwrap(args[0]) : null;
    if (list?.type === 'array') {
      const sdk: SdkId = bound.get('useFlags') ?? 'flagsmith';
      for (const el of list.namedChildren) {
        const key = stringValue(el);
        if (key) addRef(key, sdk, el);
      }
    }
    if (parent?.type === 'variable_declarator' && field === 'value') {
      const pattern = parent.childForFieldName('name');
      if (pattern?.type === 'object_pattern') {
        const sdk = bound.get('useFlags') ?? useFlagsOwner(importedSdks);
        for (const key of patternKeys(pattern)) addRef(key.name, sdk, key.node);
      }
    }
    return;
  }
  if (
    method === 'flag' &&
    (bound.get('flag') === 'vercel' ||
      (callee.type === 'member_expression' &&
        rootIdentifier(callee) &&
        bound.get(rootIdentifier(callee)!) === 'vercel'))
  ) {
    const obj = args[0] ? unwrap(args[0]) : null;
    const key = obj?.type === 'object' ? objectStringProp(obj, 'key') : null;
    if (key) {
      addRef(key, 'vercel', node, 'definition');
      if (parent?.type === 'variable_declarator') {
        const v = parent.childForFieldName('name');
        if (v?.type === 'identifier') scan.vercelFlags[v.text] = key;
      }
    }
    return;
  }
  if (
    method === 'get' &&
    callee.type === 'member_expression' &&
    callee.childForFieldName('object')?.text === 'Deno.env'
  ) {
    const key = stringValue(args[0] ?? null);
    if (key && isFlagEnvName(key)) addRef(key, 'env', node);
    return;
  }
  const sdk = sdkOfCall(node, method, bound, importedSdks);
  if (sdk) {
    const key = args
      .slice(0, 2)
      .map(stringValue)
      .find((k) => k !== null);
    if (key) addRef(key, sdk, node);
  }
}

/** Pass 3, a JSX element: the flag attribute of an SDK's flag component (<IfFeatureEnabled feature="x">). */
function jsxRefs({ bound, addRef }: FlagScan, node: Node): void {
  const tag = node.childForFieldName('name')?.text ?? '';
  const spec = Object.prototype.hasOwnProperty.call(JSX_FLAG_COMPONENTS, tag)
    ? JSX_FLAG_COMPONENTS[tag]
    : null;
  if (!spec) return;
  for (const attr of node.namedChildren) {
    if (attr.type !== 'jsx_attribute') continue;
    const [nameNode, valueNode] = attr.namedChildren;
    if (nameNode?.text !== spec[1] || !valueNode) continue;
    const key =
      valueNode.type === 'jsx_expression' ? stringValue(valueNode.firstNamedChild) : stringValue(valueNode);
    if (key) addRef(key, bound.get(tag) ?? spec[0], attr);
  }
}

/** Pass 3, a member read: env reads, `flags.key` of useFlags(), reads (and writes) of config objects. */
function memberRefs(
  { bound, flagObjects, addRef }: FlagScan,
  node: Node,
  parent: Node | null,
  field: string | null,
): void {
  const obj = node.childForFieldName('object');
  if (!obj) return;
  const key =
    node.type === 'member_expression'
      ? (node.childForFieldName('property')?.text ?? null)
      : stringValue(node.childForFieldName('index'));
  if (!key) return;
  const objText = unwrap(obj).text;
  // env reads
  if (objText === 'process.env' || objText === 'import.meta.env' || objText === 'Bun.env') {
    if (isFlagEnvName(key)) addRef(key, 'env', node);
    return;
  }
  // a method call on the object is an SDK call, not a flag read
  if (parent?.type === 'call_expression' && field === 'function') return;
  const o = unwrap(obj);
  const objName =
    o.type === 'identifier'
      ? o.text
      : o.type === 'member_expression'
        ? (o.childForFieldName('property')?.text ?? '')
        : '';
  if (o.type === 'identifier' && flagObjects.has(objName)) {
    addRef(key, flagObjects.get(objName)!, node);
    return;
  }
  if (
    CONFIG_OBJECT.test(objName) &&
    !bound.has(objName) &&
    !NOT_FLAG_KEYS.has(key) &&
    /^[A-Za-z_$][\w$-]*$/.test(key)
  ) {
    // assignment targets (`features.x = true`) define the flag
    const isTarget = parent?.type === 'assignment_expression' && field === 'left';
    addRef(key, 'config', node, isTarget ? 'definition' : 'check');
  }
}

/** Pass 3, a declaration: `const { X } = process.env`, `const features = { x: true }`. */
function declaratorRefs({ addRef }: FlagScan, node: Node): void {
  const name = node.childForFieldName('name');
  const value = node.childForFieldName('value');
  if (!name || !value) return;
  const v = unwrap(value);
  // const { FEATURE_X } = process.env
  if (
    name.type === 'object_pattern' &&
    (v.text === 'process.env' || v.text === 'import.meta.env' || v.text === 'Bun.env')
  ) {
    for (const key of patternKeys(name)) if (isFlagEnvName(key.name)) addRef(key.name, 'env', key.node);
    return;
  }
  // const features = { x: true } — and `export const featureFlags = {...} as const`
  if (name.type === 'identifier' && CONFIG_OBJECT.test(name.text) && v.type === 'object') {
    for (const [key, keyNode] of objectKeys(v)) addRef(key, 'config', keyNode, 'definition');
  }
}

function bindPattern(pattern: Node, sdk: SdkId, bound: Map<string, SdkId>): void {
  if (pattern.type === 'identifier') bound.set(pattern.text, sdk);
  else if (pattern.type === 'object_pattern') for (const k of patternKeys(pattern)) bound.set(k.local, sdk);
}

/** Keys of `{ a, b: c, d = 1 }`: name a/b/d, local a/c/d. */
function patternKeys(pattern: Node): Array<{ name: string; local: string; node: Node }> {
  const out: Array<{ name: string; local: string; node: Node }> = [];
  for (const p of pattern.namedChildren) {
    if (p.type === 'shorthand_property_identifier_pattern')
      out.push({ name: p.text, local: p.text, node: p });
    else if (p.type === 'pair_pattern') {
      const key = p.childForFieldName('key');
      const value = p.childForFieldName('value');
      const name = key ? (stringValue(key) ?? key.text) : '';
      const local =
        value?.type === 'identifier'
          ? value.text
          : value?.type === 'assignment_pattern'
            ? (value.childForFieldName('left')?.text ?? name)
            : name;
      if (name) out.push({ name, local, node: p });
    } else if (p.type === 'object_assignment_pattern') {
      const left = p.childForFieldName('left');
      if (left) out.push({ name: left.text, local: left.text, node: p });
    }
  }
  return out;
}

function objectKeys(obj: Node): Array<[string, Node]> {
  const out: Array<[string, Node]> = [];
  for (const p of obj.namedChildren) {
    if (p.type === 'pair') {
      const key = p.childForFieldName('key');
      if (!key) continue;
      const name = key.type === 'property_identifier' ? key.text : stringValue(key);
      if (name) out.push([name, key]);
    } else if (p.type === 'shorthand_property_identifier') out.push([p.text, p]);
  }
  return out;
}

function objectStringProp(obj: Node, prop: string): string | null {
  for (const p of obj.namedChildren) {
    if (p.type !== 'pair') continue;
    const key = p.childForFieldName('key');
    const name = key ? (key.type === 'property_identifier' ? key.text : stringValue(key)) : null;
    if (name === prop) return stringValue(p.childForFieldName('value'));
  }
  return null;
}
