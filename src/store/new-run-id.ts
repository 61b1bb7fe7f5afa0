import { randomBytes } from 'node:crypto';

/** Time-sortable and unique: `run-20261122-151500-3f9a`. */
export function newRunId(): string {
  const stamp = new Date().toISOString().replace(/[-:]/g, '').replace('T', '-').slice(0, 15);
  return `run-${stamp}-${randomBytes(2).toString('hex')}`;
}
