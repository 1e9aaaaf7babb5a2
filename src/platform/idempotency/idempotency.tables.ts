export interface IdempotencyKeysTable {
  account_id: number;
  idempotency_key: string;
  /** sha256 of method, URL and body: a retry must send the same request */
  fingerprint: string;
  created_at: string;
  /** null until the answer is stored */
  status: number | null;
  /** JSON object of the answer's headers worth replaying (content-type, location) */
  response_headers: string | null;
  response_body: string | null;
}

declare module '../db/extension-tables.js' {
  interface ExtensionTables {
    idempotency_keys: IdempotencyKeysTable;
  }
}
