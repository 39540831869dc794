/**
 * The consent policy (SPEC §5), one place: reading a tool's `cost`, `confirm` and `tier3` (any
 * may be a getter) and the one rule that says whether a call must be confirmed. The runner, the
 * schemas a request carries (registered and built-in tools) and the voice engines all ask here.
 */

/** A tool's consent fields as read at one moment. */
export interface ConsentFacts {
  /** Credits one run spends (0 when unset, or when it could not be read). */
  cost: number;
  /** False when `cost` threw, or is not a finite number >= 0: the price is unknown. */
  costReadable: boolean;
  /** Always asks; never covered by a session grant. */
  tier3: boolean;
  /** The page asked for confirmation (`confirm: true`). */
  confirm: boolean;
}

/** The consent fields of a definition (registered or built-in). */
export interface ConsentFields {
  cost?: unknown;
  confirm?: unknown;
  tier3?: unknown;
}

/**
 * Reads the consent fields once, never throwing. Whatever cannot be read reads as the stricter
 * value: a throwing `tier3` or `confirm` is on; a throwing or invalid `cost` is unreadable.
 *
 * @example
 * readConsentFacts({ cost: 40 });                 // { cost: 40, costReadable: true, tier3: false, confirm: false }
 * readConsentFacts({ get cost() { throw 1; } });  // { cost: 0, costReadable: false, … }
 */
export function readConsentFacts(definition: ConsentFields): ConsentFacts {
  let cost = 0;
  let costReadable = true;
  try {
    const raw: unknown = definition.cost;
    if (typeof raw === 'number' && Number.isFinite(raw) && raw >= 0) cost = raw;
    else if (raw !== undefined) costReadable = false; // NaN, negative, Infinity, null, a string
  } catch {
    costReadable = false;
  }
  return { cost, costReadable, tier3: readFlag(definition, 'tier3'), confirm: readFlag(definition, 'confirm') };
}

/**
 * THE rule: a call must be confirmed when it costs anything, is tier 3, or the page asked, and
 * when its price cannot be read (failing closed).
 *
 * @example
 * mustConfirm(readConsentFacts({ tier3: true })); // true
 * mustConfirm(readConsentFacts({}));              // false
 */
export function mustConfirm(facts: ConsentFacts): boolean {
  return !facts.costReadable || facts.confirm || facts.cost > 0 || facts.tier3;
}

/** The consent part of a tool's schema (`confirm` already derived by `mustConfirm`). */
export function consentSchema(definition: ConsentFields): { confirm: boolean; cost: number; tier3: boolean } {
  const facts = readConsentFacts(definition);
  return { confirm: mustConfirm(facts), cost: facts.cost, tier3: facts.tier3 };
}

function readFlag(definition: ConsentFields, key: 'tier3' | 'confirm'): boolean {
  try {
    // Any truthy value is on.
    return Boolean(definition[key]);
  } catch {
    return true;
  }
}
