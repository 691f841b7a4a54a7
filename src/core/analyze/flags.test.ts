/**
 * Feature flags, table-driven: a snippet per SDK form (and look-alikes that are not flags),
 * in memory, through feature_status's inventory (and flagInventory) with the real parsers.
 */
import { beforeAll, describe, expect, it } from 'vitest';
import { nodeGrammarLoader } from '../../adapters/node/grammars';
import { MemorySource, type MemoryTree } from '../source/memory';
import { Workspace } from '../source/workspace';
import { callTool } from '../tools';
import { flagInventory, type FlagInventory } from './features';
import { sdkOfModule } from './flag-sdks';
import { isFlagEnvName } from './flags';
import { sharedSourceParsers, type SourceParsers } from './parsers';

let parsers: SourceParsers;
beforeAll(async () => {
  parsers = await sharedSourceParsers(nodeGrammarLoader);
}, 60_000);

/** [sdk, name, references, definitions] per flag, in inventory order, through the tool contract. */
async function flags(tree: MemoryTree): Promise<Array<[string, string, number, number]>> {
  const ctx = { workspace: new Workspace([new MemorySource(tree)]), parsers: () => Promise.resolve(parsers) };
  const r = (await callTool('feature_status', { featureName: 'zz', includeInventory: true }, ctx)) as {
    inventory: FlagInventory;
  };
  // the function the Features view calls gives the same list
  const direct = await flagInventory(ctx.workspace, parsers);
  expect(direct.inventory).toEqual(r.inventory);
  return r.inventory.flags.map((f) => [f.sdk, f.name, f.references, f.definitions]);
}

describe('flag SDKs', () => {
  const cases: Array<[string, MemoryTree, Array<[string, string, number, number]>]> = [
    [
      'LaunchDarkly React: useFlags destructured, read as an object, and the client',
      {
        'a.tsx': [
          "import { useFlags, useLDClient } from 'launchdarkly-react-client-sdk';",
          'export function A() {',
          '  const { darkMode, betaUi: beta } = useFlags();',
          '  const all = useFlags();',
          '  const ld = useLDClient();',
          "  return all.sideNav && ld?.variation('banner-text', '') ? <i /> : null;",
          '}',
        ].join('\n'),
      },
      [
        ['launchdarkly', 'banner-text', 1, 0],
        ['launchdarkly', 'betaUi', 1, 0],
        ['launchdarkly', 'darkMode', 1, 0],
        ['launchdarkly', 'sideNav', 1, 0],
      ],
    ],
    [
      'LaunchDarkly server: init() client, boolVariation and variationDetail',
      {
        's.ts': [
          "import { init } from '@launchdarkly/node-server-sdk';",
          'const client = init(process.env.LD_KEY!);',
          "export const a = () => client.boolVariation('new-checkout', ctx, false);",
          "export const b = () => client.variationDetail('pricing-v2', ctx, 'old');",
        ].join('\n'),
      },
      [
        ['launchdarkly', 'new-checkout', 1, 0],
        ['launchdarkly', 'pricing-v2', 1, 0],
      ],
    ],
    [
      'LaunchDarkly method name without an import',
      { 'x.ts': "export const on = (c: any) => c.variation('solo-flag', false);" },
      [['launchdarkly', 'solo-flag', 1, 0]],
    ],
    [
      'Unleash: server client, receiver name, React hooks',
      {
        'u.ts':
          "import { initialize } from 'unleash-client';\nconst u = initialize({});\nexport const a = u.isEnabled('beta-search');\nexport const v = u.getVariant('search-ranker');",
        'r.tsx':
          "import { useFlag, useVariant } from '@unleash/proxy-client-react';\nexport const R = () => (useFlag('beta-search') ? <i /> : useVariant('nav-layout'));",
        'n.ts': "export const z = unleash.isEnabled('by-receiver');",
      },
      [
        ['unleash', 'beta-search', 2, 0],
        ['unleash', 'by-receiver', 1, 0],
        ['unleash', 'nav-layout', 1, 0],
        ['unleash', 'search-ranker', 1, 0],
      ],
    ],
    [
      'GrowthBook: instance methods, hooks, components',
      {
        'g.tsx': [
          "import { GrowthBook } from '@growthbook/growthbook';",
          "import { useFeatureIsOn, useFeatureValue, IfFeatureEnabled, FeatureString } from '@growthbook/growthbook-react';",
          'const gb = new GrowthBook({});',
          "export const a = gb.isOn('tour') || gb.getFeatureValue('steps', 3);",
          "export const G = () => useFeatureIsOn('tour') && useFeatureValue('color', 'red');",
          'export const H = () => <IfFeatureEnabled feature="tour"><FeatureString feature={"headline"} default="x" /></IfFeatureEnabled>;',
        ].join('\n'),
      },
      [
        ['growthbook', 'color', 1, 0],
        ['growthbook', 'headline', 1, 0],
        ['growthbook', 'steps', 1, 0],
        ['growthbook', 'tour', 3, 0],
      ],
    ],
    [
      'PostHog: client, node, hooks, component; capture is not a flag',
      {
        'p.tsx': [
          "import posthog from 'posthog-js';",
          "import { useFeatureFlagEnabled, useFeatureFlagVariantKey, PostHogFeature } from 'posthog-js/react';",
          "posthog.capture('clicked');",
          "export const a = posthog.isFeatureEnabled('notifications') && posthog.getFeatureFlag('theme');",
          "export const P = () => (useFeatureFlagEnabled('notifications') ? useFeatureFlagVariantKey('cta') : <PostHogFeature flag=\"promo\" match={true}><i /></PostHogFeature>);",
        ].join('\n'),
        'n.ts':
          "import { PostHog } from 'posthog-node';\nconst ph = new PostHog('k');\nexport const b = ph.isFeatureEnabled('server-side', 'u1');",
      },
      [
        ['posthog', 'cta', 1, 0],
        ['posthog', 'notifications', 2, 0],
        ['posthog', 'promo', 1, 0],
        ['posthog', 'server-side', 1, 0],
        ['posthog', 'theme', 1, 0],
      ],
    ],
    [
      'Statsig: node checkGate(user, gate), hooks, experiments',
      {
        's.ts':
          "import Statsig from 'statsig-node';\nexport const a = Statsig.checkGate({ userID: 'u' }, 'team_billing');\nexport const e = Statsig.getExperiment(user, 'pricing_test');",
        'h.tsx':
          "import { useGateValue, useFeatureGate } from '@statsig/react-bindings';\nexport const H = () => useGateValue('team_billing') || useFeatureGate('new_nav').value;",
      },
      [
        ['statsig', 'new_nav', 1, 0],
        ['statsig', 'pricing_test', 1, 0],
        ['statsig', 'team_billing', 2, 0],
      ],
    ],
    [
      'Flagsmith: hasFeature, getValue, useFlags([...]) read as flags.key',
      {
        'f.tsx': [
          "import flagsmith from 'flagsmith';",
          "import { useFlags } from 'flagsmith/react';",
          "export const a = flagsmith.hasFeature('ai_assistant') && flagsmith.getValue('font_size');",
          'export const F = () => {',
          "  const flags = useFlags(['ai_assistant', 'banner']);",
          '  return flags.banner.enabled ? <i /> : null;',
          '};',
        ].join('\n'),
      },
      [
        ['flagsmith', 'ai_assistant', 2, 0],
        ['flagsmith', 'banner', 2, 0],
        ['flagsmith', 'font_size', 1, 0],
      ],
    ],
    [
      'OpenFeature: server client, chained getClient(), React hooks',
      {
        'o.ts':
          "import { OpenFeature } from '@openfeature/server-sdk';\nconst client = OpenFeature.getClient();\nexport const a = client.getBooleanValue('live-chat', false);\nexport const b = OpenFeature.getClient().getStringDetails('greeting', 'hi');",
        'r.tsx':
          "import { useBooleanFlagValue, useFlag } from '@openfeature/react-sdk';\nexport const R = () => useBooleanFlagValue('live-chat', false) && useFlag('layout', 'a').value;",
      },
      [
        ['openfeature', 'greeting', 1, 0],
        ['openfeature', 'layout', 1, 0],
        ['openfeature', 'live-chat', 2, 0],
      ],
    ],
    [
      'Vercel flags: a definition, and calls of its variable in other files',
      {
        'flags.ts':
          "import { flag } from 'flags/next';\nexport const summerSale = flag<boolean>({ key: 'summer-sale', decide: () => false });\nexport const other = flag({ key: `no-subst`, decide: () => true });",
        'page.tsx':
          "import { summerSale } from './flags';\nexport default async function Page() { return (await summerSale()) ? <i /> : null; }",
        'legacy.ts':
          "import { flag } from '@vercel/flags/next';\nexport const v3 = flag({ key: 'old-package', decide: () => true });",
      },
      [
        ['vercel', 'no-subst', 0, 1],
        ['vercel', 'old-package', 0, 1],
        ['vercel', 'summer-sale', 1, 1],
      ],
    ],
    [
      'env-var flags in code and .env files; other env vars are not flags',
      {
        'env.ts': [
          "export const a = process.env.NEXT_PUBLIC_FEATURE_DARK_MODE === 'true';",
          "export const b = process.env['ENABLE_SEARCH'];",
          'export const c = import.meta.env.VITE_NEW_NAV_ENABLED;',
          "export const d = Deno.env.get('FF_PAYMENTS');",
          'const { DISABLE_SIGNUP, DATABASE_URL } = process.env;',
          'export const e = process.env.API_URL + process.env.NODE_ENV + String(DISABLE_SIGNUP) + DATABASE_URL;',
        ].join('\n'),
        '.env.local':
          'NEXT_PUBLIC_FEATURE_DARK_MODE=true\nexport ENABLE_SEARCH=1\nDATABASE_URL=postgres://x\n# FEATURE_COMMENTED=1\n',
      },
      [
        ['env', 'DISABLE_SIGNUP', 1, 0],
        ['env', 'ENABLE_SEARCH', 1, 1],
        ['env', 'FF_PAYMENTS', 1, 0],
        ['env', 'NEXT_PUBLIC_FEATURE_DARK_MODE', 1, 1],
        ['env', 'VITE_NEW_NAV_ENABLED', 1, 0],
      ],
    ],
    [
      'config-object flags: definitions and reads; look-alikes are not',
      {
        'config.ts': [
          'export const features = { referrals: true, "csv-export": false };',
          'export const settings = { featureFlags: { darkMode: true } };',
          "export const on = features.referrals && features['csv-export'] && settings.featureFlags.darkMode;",
          'export const n = geojson.features.length + geojson.features.map(f => f).length;',
          'export const cli = flags.verbose && toggles.x;',
          'FEATURE_FLAGS.newNav = true;',
        ].join('\n'),
      },
      [
        ['config', 'csv-export', 1, 1],
        ['config', 'darkMode', 1, 1],
        ['config', 'newNav', 0, 1],
        ['config', 'referrals', 1, 1],
      ],
    ],
    [
      'ambiguous calls with no evidence are not flags',
      {
        'x.ts':
          "export const a = thing.isEnabled('x') && useFlag('y') && client.getValue('z') && obj.feature('w');",
      },
      [],
    ],
    [
      'an ambiguous call follows the one SDK the file imports',
      {
        'x.tsx':
          "import { OpenFeatureProvider } from '@openfeature/react-sdk';\nexport const a = useFlag('from-import', false);",
      },
      [['openfeature', 'from-import', 1, 0]],
    ],
    [
      'CommonJS require of an SDK',
      {
        'x.js':
          "const { initialize } = require('unleash-client');\nconst client = initialize({});\nmodule.exports = () => client.isEnabled('cjs-flag');",
      },
      [['unleash', 'cjs-flag', 1, 0]],
    ],
    [
      'test files are not in the inventory',
      {
        'a.test.ts': "import posthog from 'posthog-js';\nposthog.isFeatureEnabled('only-in-tests');",
        '__tests__/b.tsx': "useFeatureIsOn('only-in-tests');",
      },
      [],
    ],
    [
      'a key built at run time is not a flag name',
      {
        'x.ts':
          "import posthog from 'posthog-js';\nexport const a = (k: string) => posthog.isFeatureEnabled(`flag-${k}`) || posthog.isFeatureEnabled(k);",
      },
      [],
    ],
  ];
  it.each(cases)('%s', async (_n, tree, want) => {
    expect(await flags(tree)).toEqual(want);
  });

  it('leaves a minified bundle out of the inventory and says why; its text is still searched for the feature', async () => {
    const bundle =
      "import{useFlag}from'@unleash/proxy-client-react';export const a=()=>useFlag('bundled-flag')&&zzMarker;" +
      Array.from({ length: 200 }, (_, i) => `function m${i}(a){return a+${i}};`).join('');
    const ws = new Workspace([
      new MemorySource({
        'vendor/app.min.js': bundle,
        'src/a.ts':
          "import { useFlag } from '@unleash/proxy-client-react';\nexport const b = () => useFlag('real-flag');\n",
      }),
    ]);
    const r = await flagInventory(ws, parsers);
    expect(r.inventory.flags.map((f) => f.name)).toEqual(['real-flag']);
    expect(r.skipped).toEqual([
      {
        path: 'vendor/app.min.js',
        reason: 'minified',
        detail: expect.stringMatching(/^1 line of [\d,]+ characters/),
      },
    ]);
    const status = (await callTool(
      'feature_status',
      { featureName: 'zz marker' },
      { workspace: ws, parsers: () => Promise.resolve(parsers) },
    )) as { references: Array<{ path: string }>; skipped: Array<{ path: string; reason: string }> };
    expect(status.references.map((x) => x.path)).toEqual(['vendor/app.min.js']);
    expect(status.skipped.map((x) => [x.path, x.reason])).toEqual([['vendor/app.min.js', 'minified']]);
  });

  it('lists places with path, line and kind, and counts files', async () => {
    const r = await flagInventory(
      new Workspace([
        new MemorySource({
          'a.ts':
            "import { flag } from 'flags/next';\nexport const x = flag({ key: 'x', decide: () => true });",
          'b.ts': "import { x } from './a';\nx();\nx();",
        }),
      ]),
      parsers,
    );
    expect(r.inventory).toEqual({
      flags: [
        {
          name: 'x',
          sdk: 'vercel',
          sdkLabel: 'Vercel Flags',
          references: 2,
          definitions: 1,
          files: 2,
          places: [
            { path: 'a.ts', line: 2, kind: 'definition' },
            { path: 'b.ts', line: 2, kind: 'check' },
            { path: 'b.ts', line: 3, kind: 'check' },
          ],
        },
      ],
      total: 1,
    });
  });
});

describe('flag helpers', () => {
  it.each([
    ['launchdarkly-react-client-sdk', 'launchdarkly'],
    ['@launchdarkly/node-server-sdk', 'launchdarkly'],
    ['unleash-client', 'unleash'],
    ['@unleash/nextjs', 'unleash'],
    ['@growthbook/growthbook-react', 'growthbook'],
    ['posthog-js/react', 'posthog'],
    ['posthog-node', 'posthog'],
    ['statsig-node', 'statsig'],
    ['@statsig/js-client', 'statsig'],
    ['flagsmith/react', 'flagsmith'],
    ['flagsmith-nodejs', 'flagsmith'],
    ['@openfeature/web-sdk', 'openfeature'],
    ['flags/next', 'vercel'],
    ['@vercel/flags/next', 'vercel'],
    ['flagsmithy', null],
    ['posthog', null],
    ['react', null],
  ])('sdkOfModule(%s) = %s', (m, want) => expect(sdkOfModule(m)).toBe(want));

  it.each([
    ['NEXT_PUBLIC_FEATURE_X', true],
    ['ENABLE_X', true],
    ['X_ENABLED', true],
    ['FF_X', true],
    ['FEATURE_FLAGS', true],
    ['DISABLE_X', true],
    ['EXPERIMENTAL_X', true],
    ['API_URL', false],
    ['NODE_ENV', false],
    ['FEATURED_POSTS', false],
  ])('isFlagEnvName(%s) = %s', (n, want) => expect(isFlagEnvName(n)).toBe(want));
});
