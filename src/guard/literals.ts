/**
 * Where money goes, written out, as more than one reading of the guard matches it (src/guard/rules.ts
 * and src/guard/clauses.ts): one spelling each.
 */

/** A UK sort code: "sort code 40-47-84". */
export const UK_SORT_CODE = String.raw`sort[\s-]*code[\s:]*\d{2}[- ]\d{2}[- ]\d{2}`;
/** A UK sort code and account number in their short form: "60-83-71 / 22019844". */
export const UK_ACCOUNT_SHORT = String.raw`(?<![\w.-])\d{2}-\d{2}-\d{2}\s*\/\s*\d{8}(?![\w-])`;
/** A UK bank account written out: "sort code 40-47-84, account 71930266", "60-83-71 / 22019844". */
export const UK_ACCOUNT = String.raw`${UK_SORT_CODE}(?:[,;]?\s+(?:(?:and\s+)?(?:account|acct|a\/c)(?:\s+(?:no\.?|number))?[\s:]*)?\d{8})?|${UK_ACCOUNT_SHORT}`;
