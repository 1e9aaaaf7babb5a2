export function verifyHearthSignature(rawBody: string | Buffer, signatureHeader: unknown, systemKey: string): boolean;
export function verifyStandardWebhook(
  rawBody: string | Buffer,
  headers: Record<string, string | undefined>,
  systemKey: string,
  toleranceSeconds?: number,
  nowSeconds?: number,
): boolean;
