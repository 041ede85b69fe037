// The credit ledger (lowdb file, hashed keys, atomic cross-process writes).
export { Ledger, insufficientCredits, ledgerFile, type Account, type LedgerData, type Reservation } from "./ledger.js";
export { generateKey, hashKey, keyHint } from "./keys.js";
