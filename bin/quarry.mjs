#!/usr/bin/env node
// Runs the TypeScript CLI through tsx's loader, so `npx quarry` works right after `npm install`.
import { register } from 'tsx/esm/api';
register();
await import('../src/cli/index.ts');
