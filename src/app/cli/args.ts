/** Parses `--flag value` pairs; repeated flags collect into arrays; a flag with no value is `true`. */
export function parseFlags(argv: string[]): Record<string, string | string[] | true> {
  const flags: Record<string, string | string[] | true> = {};
  for (let i = 0; i < argv.length; i++) {
    const arg = argv[i];
    if (!arg.startsWith('--'))
      throw new Error(`Unexpected argument '${arg}'; flags look like --name value`);
    const name = arg.slice(2);
    const next = argv[i + 1];
    const value: string | true = next === undefined || next.startsWith('--') ? true : (i++, next);
    const existing = flags[name];
    if (existing === undefined) flags[name] = value;
    else if (Array.isArray(existing)) existing.push(String(value));
    else flags[name] = [String(existing), String(value)];
  }
  return flags;
}

export function requiredString(
  flags: Record<string, string | string[] | true>,
  name: string,
): string {
  const value = flags[name];
  if (typeof value !== 'string' || value.trim() === '') throw new Error(`--${name} is required`);
  return value.trim();
}

export function stringList(
  flags: Record<string, string | string[] | true>,
  name: string,
): string[] {
  const value = flags[name];
  if (value === undefined || value === true) return [];
  return Array.isArray(value) ? value : [value];
}
