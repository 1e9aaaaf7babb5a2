import { chmodSync, closeSync, existsSync, mkdirSync, openSync, statSync } from 'node:fs';

/**
 * The data dir holds the database, the TLS key, the secret and the owner's key: only the user
 * running Hearth may enter it (0700), whatever the umask, including a dir made by an older version.
 */
export function ensurePrivateDir(dir: string): void {
  mkdirSync(dir, { recursive: true, mode: 0o700 });
  const stat = statSync(dir);
  // A shared dir (sticky, like /tmp) or someone else's is left alone.
  const sticky = (stat.mode & 0o1000) !== 0;
  if (!sticky && stat.uid === process.getuid?.() && (stat.mode & 0o077) !== 0)
    chmodSync(dir, 0o700);
}

/**
 * A SQLite database file and its -wal/-shm companions readable by their owner only (0600). SQLite
 * creates the companions with the database file's mode, so creating that file 0600 first covers them.
 */
export function ensurePrivateDatabaseFiles(file: string): void {
  closeSync(openSync(file, 'a', 0o600));
  for (const path of [file, `${file}-wal`, `${file}-shm`]) {
    if (existsSync(path)) chmodSync(path, 0o600);
  }
}
