/** Test helper: the QuarryError a promise rejects with (fails the test if it resolves or rejects otherwise). */
import { expect } from 'vitest';
import { QuarryError } from '../src/core/errors';

export async function rejectionOf(p: Promise<unknown>): Promise<QuarryError> {
  try {
    await p;
  } catch (err) {
    expect(err).toBeInstanceOf(QuarryError);
    return err as QuarryError;
  }
  throw new Error('expected a rejection');
}
