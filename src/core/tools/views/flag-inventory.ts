/**
 * flag_inventory: the app's Features view lists every feature flag before a feature name is
 * typed (feature_status answers for one feature). Every root's scripts and env files, read by
 * the JavaScript/TypeScript parsers (core/analyze/features.ts).
 */
import { flagInventory } from '../../analyze/features';
import { QuarryError } from '../../errors';
import type { Tool } from '../types';
import { ensureObject } from '../validate';
import type { FlagInventoryResult } from './types';

export const flagInventoryTool: Tool<FlagInventoryResult> = {
  name: 'flag_inventory',
  description:
    "The app's Features view: every feature flag the code reads (env-var and config flags, the common flag SDKs), each with its SDK, reference counts and first places, with the files scanned and the files left out. No arguments.",
  inputSchema: { type: 'object', properties: {}, additionalProperties: false },
  async execute(raw, ctx) {
    ensureObject(raw);
    if (!ctx.parsers)
      throw new QuarryError(
        'EngineError',
        'flag_inventory needs the JavaScript/TypeScript parsers, and this host provides none',
      );
    const r = await flagInventory(ctx.workspace, await ctx.parsers(), { signal: ctx.signal });
    return { ...r.inventory, filesScanned: r.filesScanned, skipped: r.skipped };
  },
};
