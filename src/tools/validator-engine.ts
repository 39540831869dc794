/** Which validator does the work. */
export const ValidatorEngine = {
  ajv: 'ajv',
  interpreter: 'interpreter',
} as const;
export type ValidatorEngine = (typeof ValidatorEngine)[keyof typeof ValidatorEngine];

/**
 * The engine a session validates with unless told otherwise (`new WaveSession()`, the element,
 * `createBrowserSession`): the interpreter needs no eval, so it works under a strict CSP.
 */
export const DEFAULT_VALIDATOR_ENGINE: 'auto' | ValidatorEngine = ValidatorEngine.interpreter;
