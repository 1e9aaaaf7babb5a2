/**
 * What the remembered list totals and pages (remembered-reads.ts) are keyed by on SQLite. SQLite's
 * data_version changes with every commit, so keyed by it everything was dropped by bookkeeping
 * writes no list of people or deals reads: an assistant's audit row (each MCP tool call), a job
 * claim, an outbox row marked sent, a web session's last use (written once a minute). This process's writer notes what each commit wrote, and only commits that may
 * have changed content move the version. Commits by other connections (another process on the
 * file) are seen through the writer connection's own data_version, which changes only for them.
 */
export const BOOKKEEPING_TABLES = ['mcp_tool_calls', 'lead_jobs', 'outbox', 'sessions'];
const BOOKKEEPING = new Set(BOOKKEEPING_TABLES);
const MENTIONS_BOOKKEEPING = new RegExp(`\\b(?:${BOOKKEEPING_TABLES.join('|')})\\b`, 'i');
/** The table an INSERT, UPDATE or DELETE writes; anything else counts as a content write. */
const WRITE_TARGET =
  /^\s*(?:insert(?:\s+or\s+\w+)?\s+into|update(?:\s+or\s+\w+)?|delete\s+from)\s+"?(\w+)"?[\s(]/i;

/** Whether a query reads a bookkeeping table (its total must follow that table's writes too). */
export const readsBookkeeping = (sql: string): boolean => MENTIONS_BOOKKEEPING.test(sql);

export class ContentVersion {
  #content = 0;
  #bookkeeping = 0;
  #pendingContent = false;
  #pendingBookkeeping = false;

  constructor(private readonly othersVersion: () => number) {}

  /** A statement that is not a plain read ran (its writes commit with the next `settled`). */
  wrote(sql: string): void {
    const table = WRITE_TARGET.exec(sql)?.[1];
    if (table !== undefined && BOOKKEEPING.has(table.toLowerCase()))
      this.#pendingBookkeeping = true;
    else this.#pendingContent = true;
  }

  /** The writes noted so far have committed, or may have (a failed commit counts as one too). */
  settled(): void {
    if (this.#pendingContent) this.#content += 1;
    if (this.#pendingBookkeeping) this.#bookkeeping += 1;
    this.#pendingContent = false;
    this.#pendingBookkeeping = false;
  }

  /** Changes whenever a commit may have changed content (any table but the bookkeeping ones). */
  content(): string {
    return `${this.othersVersion()}.${this.#content}`;
  }

  /** Changes whenever a commit may have changed a bookkeeping table. */
  bookkeeping(): number {
    return this.#bookkeeping;
  }
}
