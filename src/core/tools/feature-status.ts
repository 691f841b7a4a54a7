/**
 * feature_status (seed 000): is a feature implemented, feature-flagged, tested? Seed shape
 * `{ featureName, implemented, featureFlagged, flagName, testCoverage, references: [{ path,
 * context }], summary }`. Added: per reference line, column, match, contextStartLine,
 * category, comment; and words, variants, totalReferences, counts, flags (the flags that
 * spell the feature, with SDK and counts), testFiles, codeFiles, filesScanned, skipped; with
 * `includeInventory: true`, `inventory` lists every flag of the repository. The rules are
 * in core/analyze/features.ts, flags.ts and names.ts.
 */
import { QuarryError } from '../errors';
import { featureStatus, type FeatureStatus } from '../analyze/features';
import { featureWords } from '../analyze/names';
import { requireParsers } from '../analyze/parsers';
import type { Tool } from './types';
import { ensureObject, optionalBoolean, optionalInt, requiredString } from './validate';

export type FeatureStatusResult = Omit<FeatureStatus, 'inventory'> & {
  inventory?: FeatureStatus['inventory'];
};

export const MAX_FEATURE_NAME_CHARS = 200;

export const featureStatusTool: Tool<FeatureStatusResult> = {
  name: 'feature_status',
  description:
    'Check the status of a feature in the codebase: implemented (referenced from code, not only comments, tests or docs), feature-flagged and the flag name (LaunchDarkly, Unleash, GrowthBook, PostHog, Statsig, Flagsmith, OpenFeature, Vercel flags, env-var and config-object flags), test coverage, references with context, and a plain-language summary. The name is matched in camelCase, snake_case, kebab-case, SCREAMING_CASE and with words like enable/flag. includeInventory adds every flag in the repository.',
  inputSchema: {
    type: 'object',
    properties: {
      featureName: {
        type: 'string',
        description: "Name of the feature to check (e.g. 'notifications', 'new checkout', 'darkMode')",
      },
      maxReferences: {
        type: 'integer',
        minimum: 1,
        maximum: 1000,
        default: 50,
        description: 'Most references to return (code first); totalReferences counts them all',
      },
      includeInventory: {
        type: 'boolean',
        default: false,
        description: 'Also list every feature flag found in the repository, with its SDK and reference count',
      },
    },
    required: ['featureName'],
    additionalProperties: false,
  },
  async execute(raw, ctx) {
    const args = ensureObject(raw);
    const featureName = requiredString(args, 'featureName');
    if (featureName.length > MAX_FEATURE_NAME_CHARS) {
      throw new QuarryError(
        'InvalidArgument',
        `featureName must be at most ${MAX_FEATURE_NAME_CHARS} characters`,
        { field: 'featureName' },
      );
    }
    if (featureWords(featureName).length === 0) {
      throw new QuarryError(
        'InvalidArgument',
        `featureName must contain a letter or digit, got "${featureName}"`,
        { field: 'featureName', value: featureName },
      );
    }
    const maxReferences = optionalInt(args, 'maxReferences', 50, 1, 1000);
    const includeInventory = optionalBoolean(args, 'includeInventory', false);
    const parsers = await requireParsers(ctx.parsers, 'feature_status');
    const { inventory, ...status } = await featureStatus(ctx.workspace, parsers, featureName, {
      maxReferences,
      signal: ctx.signal,
    });
    return includeInventory ? { ...status, inventory } : status;
  },
};
