import type { ImapFlow, MailboxObject } from 'imapflow';
import type { AppContext } from '../../../platform/context.js';
import { fileMessage, type Filer, type Folder, parseLeadIn } from './file.js';
import { mailMessageOf } from './message.js';
import { decodeMail } from '../../../leads/inboundEmail/mime.js';

/** UIDs fetched per FETCH: with each message capped, this bounds what one batch holds. */
const BATCH = 50;

/** INBOX, and the Sent folder by its special-use flag (RFC 6154), else by its usual names. */
export async function locateFolders(client: ImapFlow): Promise<{ role: Folder; path: string }[]> {
  const list = await client.list();
  const sent =
    list.find((f) => f.specialUse === '\\Sent') ??
    list.find((f) =>
      /^(sent|sent items|sent mail|sent messages|\[gmail\]\/sent mail)$/i.test(f.path),
    );
  return [
    { role: 'inbox', path: 'INBOX' },
    ...(sent ? [{ role: 'sent' as const, path: sent.path }] : []),
  ];
}

export interface FolderPass {
  ctx: AppContext;
  client: ImapFlow;
  filer: Filer;
  /** the first sync: lead emails found are history */
  historic: boolean;
  /** the start of the window a fresh folder is read from */
  since: Date;
  /** called between batches: throws when the session must stop */
  checkpoint(): void;
}

/** The UIDs to read: after the last one filed, or the window since `since` for a fresh folder. */
async function pendingUids(pass: FolderPass, lastUid: number | null): Promise<number[]> {
  const found =
    lastUid === null
      ? await pass.client.search({ since: pass.since }, { uid: true })
      : await pass.client.search({ uid: `${lastUid + 1}:*` }, { uid: true });
  return (found || []).filter((uid) => lastUid === null || uid > lastUid).sort((a, b) => a - b);
}

/**
 * Reads a folder's new messages and files them, batch by batch, recording the highest UID done
 * after each batch: a restart resumes there. A new UIDVALIDITY (the folder was rebuilt) or a
 * renamed folder reads its window again; filing once per Message-ID keeps that harmless.
 */
export async function syncFolder(pass: FolderPass, role: Folder, path: string): Promise<number> {
  const { ctx, client, filer } = pass;
  const lock = await client.getMailboxLock(path, { readOnly: true });
  let filed = 0;
  try {
    const box = client.mailbox as MailboxObject;
    const validity = String(box.uidValidity);
    const state = await ctx.db
      .selectFrom('mailbox_folders')
      .selectAll()
      .where('mailbox_id', '=', filer.mailboxId)
      .where('role', '=', role)
      .executeTakeFirst();
    const fresh = !state || state.uid_validity !== validity || state.path !== path;
    if (fresh) {
      await ctx.db
        .deleteFrom('mailbox_folders')
        .where('mailbox_id', '=', filer.mailboxId)
        .where('role', '=', role)
        .execute();
      await ctx.db
        .insertInto('mailbox_folders')
        .values({ mailbox_id: filer.mailboxId, role, path, uid_validity: validity, last_uid: 0 })
        .execute();
    }
    const uids = await pendingUids(pass, fresh ? null : state!.last_uid);
    const maxLength = ctx.config.mailbox.maxMessageBytes;
    for (let i = 0; i < uids.length; i += BATCH) {
      pass.checkpoint();
      const batch = uids.slice(i, i + BATCH);
      for await (const message of client.fetch(
        batch.join(','),
        { uid: true, source: { maxLength } },
        { uid: true },
      )) {
        if (!message.source) continue;
        filed += await fileOne(pass, role, message.source);
      }
      await ctx.db
        .updateTable('mailbox_folders')
        .set({ last_uid: batch[batch.length - 1] })
        .where('mailbox_id', '=', filer.mailboxId)
        .where('role', '=', role)
        .execute();
    }
    // Every UID below UIDNEXT at selection was read or is older than the window: next time
    // starts after them (else a folder of only old mail would look new forever).
    const seen = Number(box.uidNext) - 1;
    await ctx.db
      .updateTable('mailbox_folders')
      .set({ last_uid: seen })
      .where('mailbox_id', '=', filer.mailboxId)
      .where('role', '=', role)
      .where('last_uid', '<', seen)
      .execute();
  } finally {
    lock.release();
  }
  return filed;
}

/** One message: on its people's timelines, else (received) perhaps a lead. Broken MIME is skipped. */
async function fileOne(pass: FolderPass, role: Folder, raw: Buffer): Promise<number> {
  const { ctx, filer } = pass;
  let parsed, msg;
  try {
    // Decoded once: for filing, and for the lead parsers when it is nobody's conversation.
    parsed = await decodeMail(raw);
    msg = mailMessageOf(parsed, raw);
  } catch (err) {
    ctx.log.warn(
      { mailboxId: filer.mailboxId, err: (err as Error).message },
      'message not decoded',
    );
    return 0;
  }
  const { filed, matched } = await fileMessage(ctx, filer, msg, role);
  if (!matched && role === 'inbox' && msg.from !== filer.address)
    await parseLeadIn(ctx, filer, raw, parsed, msg.from, pass.historic);
  return filed;
}
