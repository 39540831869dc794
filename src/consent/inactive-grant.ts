import type { SpendGrantState } from './types.js';

/**
 * The state of no grant (a new conversation, a revoked or expired grant). Its own module: the
 * launcher's shell shows it before the consent code (types.ts's decisions, the grant) has loaded.
 */
export const INACTIVE_GRANT: SpendGrantState = Object.freeze({ active: false, spent: 0, cap: 0, grantedAt: 0, expiresAt: 0 });
