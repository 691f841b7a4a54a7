/** Quarry's product identity in tool envelopes (a test keeps it equal to package.json's version). */
export const PRODUCT = 'quarry';
export const PRODUCT_VERSION = '0.1.0';
export const ENGINE = 'quarry-core';
