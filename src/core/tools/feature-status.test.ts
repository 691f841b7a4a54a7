/**
 * feature_status over the flags fixture app and in-memory trees, and cancellation of every
 * analyzer tool, through callTool.
 */
import { beforeAll, describe, expect, it } from 'vitest';
import { MemorySource, type MemoryTree } from '../source/memory';
import { Workspace } from '../source/workspace';
import { callTool } from '.';
import { fixture, memory, parsers, refusal } from './analyze-tools.testutil';

beforeAll(async () => {
  await parsers();
}, 60_000);

describe('feature_status on the flags fixture', () => {
  // featureName, implemented, featureFlagged, flagName, testCoverage
  const cases: Array<[string, boolean, boolean, string | null, boolean]> = [
    ['new checkout', true, true, 'new-checkout', true],
    ['newCheckout', true, true, 'new-checkout', true],
    ['NEW_CHECKOUT', true, true, 'new-checkout', true],
    ['enable-new-checkout', true, true, 'new-checkout', true],
    ['checkout button color', true, true, 'checkout-button-color', false],
    ['notifications', true, true, 'notifications', true],
    ['beta search', true, true, 'beta-search', false],
    ['onboarding tour', true, true, 'onboarding-tour', false],
    ['team billing', true, true, 'team_billing', false],
    ['ai assistant', true, true, 'ai_assistant', false],
    ['live chat', true, true, 'live-chat', false],
    ['summer sale', true, true, 'summer-sale', false],
    ['dark mode', true, true, 'NEXT_PUBLIC_FEATURE_DARK_MODE', false],
    ['referrals', true, true, 'VITE_ENABLE_REFERRALS', false],
    ['export csv', true, true, 'FEATURE_EXPORT_CSV', false],
    ['legacy export', false, false, null, false],
    ['offline mode', false, false, null, false],
    ['ghost mode', false, false, null, true],
    ['teleport', false, false, null, false],
  ];
  it.each(cases)('%s', async (featureName, implemented, featureFlagged, flagName, testCoverage) => {
    const r = (await callTool('feature_status', { featureName }, fixture('flags-app'))) as any;
    expect({
      implemented: r.implemented,
      featureFlagged: r.featureFlagged,
      flagName: r.flagName,
      testCoverage: r.testCoverage,
    }).toEqual({
      implemented,
      featureFlagged,
      flagName,
      testCoverage,
    });
    expect(r.featureName).toBe(featureName);
    expect(typeof r.summary).toBe('string');
    for (const ref of r.references) {
      expect(typeof ref.path).toBe('string');
      expect(ref.context.split('\n')).toContain(ref.context.split('\n')[ref.line - ref.contextStartLine]);
    }
  });

  it('answers with the seed fields and the added ones', async () => {
    const r = (await callTool(
      'feature_status',
      { featureName: 'new checkout' },
      fixture('flags-app'),
    )) as any;
    expect(Object.keys(r).slice(0, 7)).toEqual([
      'featureName',
      'implemented',
      'featureFlagged',
      'flagName',
      'testCoverage',
      'references',
      'summary',
    ]);
    expect(r.references.map((x: any) => [x.path, x.line, x.category, x.comment, x.match])).toEqual([
      ['src/launchdarkly/CheckoutButton.tsx', 4, 'code', false, 'newCheckout'],
      ['src/launchdarkly/CheckoutButton.tsx', 7, 'code', false, 'newCheckout'],
      ['src/launchdarkly/CheckoutButton.tsx', 10, 'code', false, 'NewCheckout'],
      ['src/launchdarkly/server.ts', 5, 'code', false, 'NewCheckout'],
      ['src/launchdarkly/server.ts', 7, 'code', false, 'new-checkout'],
      ['src/__tests__/checkout.tsx', 1, 'test', false, 'NewCheckout'],
      ['src/__tests__/checkout.tsx', 3, 'test', false, 'new checkout'],
      ['src/__tests__/checkout.tsx', 5, 'test', false, 'NewCheckout'],
    ]);
    expect(r.references[4]).toEqual({
      path: 'src/launchdarkly/server.ts',
      context: [
        'export async function isNewCheckoutOn(userKey: string): Promise<boolean> {',
        "  const context = { kind: 'user', key: userKey };",
        "  return client.boolVariation('new-checkout', context, false);",
        '}',
      ].join('\n'),
      line: 7,
      column: 32,
      match: 'new-checkout',
      contextStartLine: 5,
      category: 'code',
      comment: false,
    });
    expect(r.flags.map((f: any) => [f.sdk, f.name, f.references])).toEqual([
      ['launchdarkly', 'new-checkout', 1],
      ['launchdarkly', 'newCheckout', 1],
    ]);
    expect(r.counts).toEqual({ code: 5, test: 3, docs: 0, config: 0, other: 0, comments: 0 });
    expect(r.testFiles).toEqual(['src/__tests__/checkout.tsx']);
    expect(r.codeFiles).toEqual(['src/launchdarkly/CheckoutButton.tsx', 'src/launchdarkly/server.ts']);
    expect(r.totalReferences).toBe(8);
    expect(r.words).toEqual(['new', 'checkout']);
    expect(r.variants).toContain('NEW_CHECKOUT');
    expect(r.inventory).toBeUndefined();
    expect(r.summary).toBe(
      '"new checkout" is implemented: 5 code references in 2 source files (src/launchdarkly/CheckoutButton.tsx, src/launchdarkly/server.ts). It is behind the LaunchDarkly flag "new-checkout" (1 place in 1 file), and 1 more related flag: "newCheckout". Tests cover it: 1 test file (src/__tests__/checkout.tsx).',
    );
  });

  const summaries: Array<[string, string]> = [
    [
      'legacy export',
      '"legacy export" does not appear to be implemented: no code references it outside comments; it is mentioned in 2 comments. No feature flag for it was found. No test references it.',
    ],
    [
      'offline mode',
      '"offline mode" does not appear to be implemented: no code references it outside comments; it is mentioned in 3 documentation references. No feature flag for it was found. No test references it.',
    ],
    [
      'ghost mode',
      '"ghost mode" does not appear to be implemented: no code references it outside comments; it is mentioned in 1 comment, 3 test references. No feature flag for it was found. Tests cover it: 1 test file (src/ghost.spec.tsx).',
    ],
    [
      'teleport',
      'No references to "teleport" were found in 24 files (searched as teleport, Teleport, TELEPORT, enableTeleport, isTeleportEnabled). It does not appear to be implemented, feature-flagged or tested.',
    ],
    [
      'dark mode',
      '"dark mode" is implemented: 4 code references in 2 source files (src/config.ts, src/env.ts). It is behind the environment variable flag "NEXT_PUBLIC_FEATURE_DARK_MODE" (2 places in 2 files), and 1 more related flag: "darkMode". No test references it.',
    ],
  ];
  it.each(summaries)('summary for %s', async (featureName, summary) => {
    const r = (await callTool('feature_status', { featureName }, fixture('flags-app'))) as any;
    expect(r.summary).toBe(summary);
  });

  it('marks comment references and ranks them last', async () => {
    const r = (await callTool('feature_status', { featureName: 'live chat' }, fixture('flags-app'))) as any;
    expect(r.references.map((x: any) => [x.path, x.line, x.comment])).toEqual([
      ['src/analytics.py', 2, false],
      ['src/analytics.py', 3, false],
      ['src/openfeature/ChatWidget.tsx', 4, false],
      ['src/openfeature/ChatWidget.tsx', 5, false],
      ['src/openfeature/chat.ts', 5, false],
      ['src/openfeature/chat.ts', 6, false],
      ['src/analytics.py', 1, true],
    ]);
  });

  it('includeInventory lists every flag in the repository with its SDK and counts', async () => {
    const r = (await callTool(
      'feature_status',
      { featureName: 'teleport', includeInventory: true },
      fixture('flags-app'),
    )) as any;
    expect(r.inventory.flags.map((f: any) => [f.sdk, f.name, f.references, f.definitions, f.files])).toEqual([
      ['launchdarkly', 'checkout-button-color', 1, 0, 1],
      ['launchdarkly', 'new-checkout', 1, 0, 1],
      ['launchdarkly', 'newCheckout', 1, 0, 1],
      ['unleash', 'beta-search', 2, 0, 2],
      ['growthbook', 'onboarding-steps', 1, 0, 1],
      ['growthbook', 'onboarding-tour', 2, 0, 1],
      ['posthog', 'notifications', 2, 0, 1],
      ['statsig', 'team_billing', 2, 0, 2],
      ['flagsmith', 'ai_assistant', 3, 0, 1],
      ['openfeature', 'live-chat', 2, 0, 2],
      ['vercel', 'summer-sale', 1, 1, 2],
      ['env', 'FEATURE_EXPORT_CSV', 1, 0, 1],
      ['env', 'NEXT_PUBLIC_FEATURE_DARK_MODE', 1, 1, 2],
      ['env', 'VITE_ENABLE_REFERRALS', 1, 1, 2],
      ['config', 'darkMode', 1, 1, 1],
      ['config', 'exportCsv', 0, 1, 1],
      ['config', 'referrals', 1, 1, 1],
    ]);
    expect(r.inventory.total).toBe(17);
    expect(r.inventory.flags[0]).toEqual({
      name: 'checkout-button-color',
      sdk: 'launchdarkly',
      sdkLabel: 'LaunchDarkly',
      references: 1,
      definitions: 0,
      files: 1,
      places: [{ path: 'src/launchdarkly/CheckoutButton.tsx', line: 6, kind: 'check' }],
    });
  });

  it('maxReferences caps the list (code first); totalReferences counts them all', async () => {
    const r = (await callTool(
      'feature_status',
      { featureName: 'new checkout', maxReferences: 2 },
      fixture('flags-app'),
    )) as any;
    expect(r.references.map((x: any) => x.line)).toEqual([4, 7]);
    expect(r.totalReferences).toBe(8);
  });
});

describe('feature_status (in memory)', () => {
  const cases: Array<
    [
      string,
      MemoryTree,
      string,
      Partial<Record<'implemented' | 'featureFlagged' | 'testCoverage', boolean>> & {
        flagName?: string | null;
      },
    ]
  > = [
    [
      'a string in JSX text is code',
      { 'a.tsx': 'export const A = () => <h1>Referral program</h1>;' },
      'referral program',
      { implemented: true },
    ],
    [
      'a block comment is not code',
      { 'a.ts': '/* referral program\n   coming soon */\nexport {};' },
      'referral program',
      { implemented: false },
    ],
    [
      'a JSX comment is not code',
      { 'a.tsx': 'export const A = () => <div>{/* referral program */}</div>;' },
      'referral program',
      { implemented: false },
    ],
    [
      'a regex literal with slashes does not confuse comments',
      { 'a.ts': 'const r = /\\/\\//;\nexport const referralProgram = r;' },
      'referral program',
      { implemented: true },
    ],
    [
      'a Go comment',
      { 'a.go': 'package a\n// ReferralProgram is planned\n' },
      'referral program',
      { implemented: false },
    ],
    [
      'Go code',
      { 'a.go': 'package a\nfunc ReferralProgram() {}\n' },
      'referral program',
      { implemented: true },
    ],
    [
      'a .test. file covers it',
      { 'a.ts': 'export const referralProgram = 1;', 'a.test.ts': "it('referral program', () => {});" },
      'referral program',
      { implemented: true, testCoverage: true },
    ],
    [
      'a test file named after the feature covers it',
      { 'tests/referral-program.py': 'def test_it():\n    assert True\n' },
      'referral program',
      { testCoverage: true, implemented: false },
    ],
    [
      'a mention in a test comment alone is not coverage',
      { 'x.spec.ts': '// referral program later\nit("x", () => {});' },
      'referral program',
      { testCoverage: false },
    ],
    [
      'JSON config is not code',
      { 'config.json': '{"referralProgram": true}' },
      'referral program',
      { implemented: false },
    ],
    [
      'a flag found only in tests does not flag the feature',
      { 'a.test.ts': "import posthog from 'posthog-js';\nposthog.isFeatureEnabled('referral-program');" },
      'referral program',
      { featureFlagged: false, flagName: null, testCoverage: true },
    ],
    [
      'an SDK flag is preferred to an env var',
      {
        'a.ts':
          "import posthog from 'posthog-js';\nexport const a = process.env.ENABLE_REFERRAL_PROGRAM && process.env.ENABLE_REFERRAL_PROGRAM;\nexport const b = posthog.isFeatureEnabled('referral-program');",
      },
      'referral program',
      { featureFlagged: true, flagName: 'referral-program' },
    ],
  ];
  it.each(cases)('%s', async (_n, tree, featureName, want) => {
    const r = (await callTool('feature_status', { featureName }, memory(tree))) as any;
    expect(Object.fromEntries(Object.keys(want).map((k) => [k, r[k]]))).toEqual(want);
  });

  const bad: Array<[string, unknown, string, string, RegExp]> = [
    ['a missing featureName', {}, 'InvalidArgument', 'featureName', /Missing required field: featureName/],
    [
      'a featureName that is not a string',
      { featureName: 7 },
      'InvalidArgument',
      'featureName',
      /featureName must be a string/,
    ],
    ['an empty featureName', { featureName: '  ' }, 'InvalidArgument', 'featureName', /must not be empty/],
    [
      'a featureName without letters or digits',
      { featureName: '--_--' },
      'InvalidArgument',
      'featureName',
      /must contain a letter or digit/,
    ],
    [
      'a featureName too long',
      { featureName: 'x'.repeat(201) },
      'InvalidArgument',
      'featureName',
      /at most 200 characters/,
    ],
    [
      'maxReferences zero',
      { featureName: 'x', maxReferences: 0 },
      'InvalidArgument',
      'maxReferences',
      /from 1 to 1000/,
    ],
    [
      'maxReferences not an integer',
      { featureName: 'x', maxReferences: 2.5 },
      'InvalidArgument',
      'maxReferences',
      /integer/,
    ],
    [
      'includeInventory not a boolean',
      { featureName: 'x', includeInventory: 1 },
      'InvalidArgument',
      'includeInventory',
      /boolean/,
    ],
  ];
  it.each(bad)('refuses %s', async (_n, args, code, field, message) => {
    const e = await refusal(callTool('feature_status', args, memory({ 'a.ts': '' })));
    expect(e.code).toBe(code);
    expect(e.data.field).toBe(field);
    expect(e.message).toMatch(message);
  });

  it('says so when the host provides no parsers', async () => {
    const e = await refusal(
      callTool('feature_status', { featureName: 'x' }, { workspace: new Workspace([new MemorySource({})]) }),
    );
    expect(e.code).toBe('EngineError');
  });
});

describe('cancellation', () => {
  it.each([
    ['find_components', {}],
    ['get_routes', {}],
    ['feature_status', { featureName: 'notifications' }],
  ])('%s stops with Cancelled when the signal has fired', async (tool, args) => {
    const c = fixture('flags-app');
    const e = await refusal(callTool(tool, args, { ...c, signal: AbortSignal.abort() }));
    expect(e.code).toBe('Cancelled');
  });
});
