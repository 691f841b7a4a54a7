/**
 * The feature-flag SDKs flags.ts knows (see there for each one's forms): their display names,
 * the modules they ship in, the methods that evaluate a flag and the receiver names that give
 * them away, and which SDK a call belongs to.
 */
import type { Node } from 'web-tree-sitter';
import { calleeObject, rootIdentifier } from './syntax';

export type FlagSdk =
  | 'launchdarkly'
  | 'unleash'
  | 'growthbook'
  | 'posthog'
  | 'statsig'
  | 'flagsmith'
  | 'openfeature'
  | 'vercel'
  | 'env'
  | 'config';

export const SDK_LABELS: Readonly<Record<FlagSdk, string>> = {
  launchdarkly: 'LaunchDarkly',
  unleash: 'Unleash',
  growthbook: 'GrowthBook',
  posthog: 'PostHog',
  statsig: 'Statsig',
  flagsmith: 'Flagsmith',
  openfeature: 'OpenFeature',
  vercel: 'Vercel Flags',
  env: 'environment variable',
  config: 'config object',
};

/** Display order: the SDKs, then plain env and config flags. */
export const SDK_ORDER: readonly FlagSdk[] = [
  'launchdarkly',
  'unleash',
  'growthbook',
  'posthog',
  'statsig',
  'flagsmith',
  'openfeature',
  'vercel',
  'env',
  'config',
];

export type SdkId = Exclude<FlagSdk, 'env' | 'config'>;

const SDK_MODULES: ReadonlyArray<[RegExp, SdkId]> = [
  [/^(launchdarkly-|@launchdarkly\/)/, 'launchdarkly'],
  [/^(unleash-client|unleash-proxy-client|@unleash\/)/, 'unleash'],
  [/^@growthbook\//, 'growthbook'],
  [/^posthog-(js|node|react-native)(\/|$)/, 'posthog'],
  [/^(statsig-|@statsig\/)/, 'statsig'],
  [/^(flagsmith(-nodejs|-es)?(\/|$)|@flagsmith\/)/, 'flagsmith'],
  [/^@openfeature\//, 'openfeature'],
  [/^(flags|@vercel\/flags)(\/|$)/, 'vercel'],
];

export function sdkOfModule(source: string): SdkId | null {
  for (const [re, sdk] of SDK_MODULES) if (re.test(source)) return sdk;
  return null;
}

const variations = ['', 'bool', 'string', 'number', 'json'].flatMap((t) => {
  const base = t ? `${t}Variation` : 'variation';
  return [base, `${base}Detail`];
});
const openFeature = ['Boolean', 'String', 'Number', 'Object'].flatMap((t) => [
  `get${t}Value`,
  `get${t}Details`,
  `use${t}FlagValue`,
  `use${t}FlagDetails`,
]);

/** Calls that evaluate a flag, per SDK. */
const SDK_METHODS: Readonly<Record<SdkId, readonly string[]>> = {
  launchdarkly: variations,
  unleash: ['isEnabled', 'getVariant', 'useFlag', 'useVariant'],
  growthbook: [
    'isOn',
    'isOff',
    'getFeatureValue',
    'evalFeature',
    'feature',
    'useFeatureIsOn',
    'useFeatureValue',
    'useFeature',
  ],
  posthog: [
    'isFeatureEnabled',
    'getFeatureFlag',
    'getFeatureFlagPayload',
    'useFeatureFlagEnabled',
    'useFeatureFlagVariantKey',
    'useFeatureFlagPayload',
  ],
  statsig: [
    'checkGate',
    'checkGateSync',
    'getFeatureGate',
    'useGate',
    'useGateValue',
    'useFeatureGate',
    'getExperiment',
    'useExperiment',
    'getDynamicConfig',
    'useDynamicConfig',
    'getLayer',
    'useLayer',
  ],
  flagsmith: ['hasFeature', 'getValue', 'isFeatureEnabled', 'getFeatureValue'],
  openfeature: [...openFeature, 'useFlag', 'useSuspenseFlag'],
  vercel: [],
};

/** Names too common to identify an SDK on their own (`button.isEnabled()`, `form.getValue('x')`). */
const GENERIC_METHODS = new Set([
  'isEnabled',
  'getValue',
  'feature',
  'isOn',
  'isOff',
  'hasFeature',
  'getVariant',
  'useFlag',
  'useVariant',
  'getLayer',
  'useLayer',
  'getExperiment',
  'useExperiment',
  'useFeature',
]);

/** Method name -> the one SDK that uses it (names several SDKs share, and generic names, are absent). */
const UNIQUE_METHODS = new Map<string, SdkId>();
{
  const seen = new Map<string, SdkId[]>();
  for (const [sdk, names] of Object.entries(SDK_METHODS) as Array<[SdkId, readonly string[]]>) {
    for (const n of names) seen.set(n, [...(seen.get(n) ?? []), sdk]);
  }
  for (const [n, sdks] of seen)
    if (sdks.length === 1 && !GENERIC_METHODS.has(n)) UNIQUE_METHODS.set(n, sdks[0]);
}

const RECEIVER_NAMES: ReadonlyArray<[RegExp, SdkId]> = [
  [/launchdarkly|^ld($|[A-Z_])/i, 'launchdarkly'],
  [/unleash/i, 'unleash'],
  [/growthbook|^gb$/i, 'growthbook'],
  [/posthog/i, 'posthog'],
  [/statsig/i, 'statsig'],
  [/flagsmith/i, 'flagsmith'],
  [/openfeature/i, 'openfeature'],
];

export const JSX_FLAG_COMPONENTS: Readonly<Record<string, [SdkId, string]>> = {
  IfFeatureEnabled: ['growthbook', 'feature'],
  FeatureString: ['growthbook', 'feature'],
  PostHogFeature: ['posthog', 'flag'],
};

const SDK_METHODS_ANY = new Set(Object.values(SDK_METHODS).flat());

/**
 * The SDK a call of `method` evaluates a flag with, by (1) its callee or receiver bound to an
 * SDK (`bound`: imported from or created by an SDK module), (2) a method only one SDK uses,
 * (3) the receiver's name, or (4) the one SDK the file imports; null when none says so.
 */
export function sdkOfCall(
  call: Node,
  method: string,
  bound: ReadonlyMap<string, SdkId>,
  importedSdks: ReadonlySet<SdkId>,
): SdkId | null {
  const receiver = calleeObject(call);
  const rootName = receiver ? rootIdentifier(receiver) : null;
  const calleeIdent = receiver ? null : method;
  const fromBinding = (rootName && bound.get(rootName)) || (calleeIdent && bound.get(calleeIdent)) || null;
  if (fromBinding) return SDK_METHODS[fromBinding].includes(method) ? fromBinding : null;
  const unique = UNIQUE_METHODS.get(method);
  if (unique) return unique;
  if (!SDK_METHODS_ANY.has(method)) return null;
  if (rootName)
    for (const [re, sdk] of RECEIVER_NAMES)
      if (re.test(rootName) && SDK_METHODS[sdk].includes(method)) return sdk;
  if (importedSdks.size === 1) {
    const only = [...importedSdks][0];
    if (SDK_METHODS[only].includes(method)) return only;
  }
  return null;
}
