// Types for layers.js.
import type { LayerOptions, LayerSpec } from './boundaries.js';

export declare const CORE_PACKAGES: string[];
export declare const UI_PACKAGES: string[];
export declare const UI_WORKER_SURFACE: string[];
export declare const LAYERS: Record<string, LayerSpec>;
export declare const LAYER_OPTIONS: LayerOptions;
