// Each capability declares its tables in its own folder and joins them here,
// so that src/platform/db/database.ts stays the one `DB` type every query is checked against.
// eslint-disable-next-line @typescript-eslint/no-empty-object-type
export interface ExtensionTables {}
