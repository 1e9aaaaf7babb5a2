import { spawn, spawnSync } from 'node:child_process';
import {
  chmodSync,
  chownSync,
  existsSync,
  mkdirSync,
  mkdtempSync,
  renameSync,
  rmSync,
  utimesSync,
  writeFileSync,
} from 'node:fs';
import { connect, createServer } from 'node:net';
import { tmpdir, userInfo } from 'node:os';
import path from 'node:path';

export const DOVECOT = '/usr/sbin/dovecot';

/** Why mailbox tests cannot run here, or null. CI installs Debian's `dovecot-imapd`. */
export function dovecotMissing(): string | null {
  return existsSync(DOVECOT)
    ? null
    : `${DOVECOT} is missing: install Debian's dovecot-imapd to run the mailbox tests`;
}

export interface Dovecot {
  host: string;
  port: number;
  dir: string;
  /** Adds a user with a plain password and an empty maildir. */
  /** Adds a user and resolves once dovecot signs them in. */
  addUser(name: string, password: string): Promise<void>;
  /**
   * Writes messages straight into a user's INBOX maildir (`new/`), as a delivery agent would:
   * much faster than APPEND for a big mailbox. The user must have been added.
   */
  fillInbox(user: string, messages: Iterable<string | Buffer>): number;
  stop(): Promise<void>;
}

/**
 * Who dovecot's processes run as: the current user, or under root (CI containers), the Debian
 * package's own users, since dovecot refuses to run its login and mail processes as root.
 */
function mailUsers(dir: string) {
  const me = userInfo();
  if (me.uid !== 0)
    return {
      internal: me.username,
      internalGroup: me.username,
      login: me.username,
      uid: me.uid,
      gid: me.gid,
    };
  const uid = Number(spawnSync('id', ['-u', 'nobody'], { encoding: 'utf8' }).stdout.trim());
  const gid = Number(spawnSync('id', ['-g', 'nobody'], { encoding: 'utf8' }).stdout.trim());
  for (const sub of ['mail', 'home']) {
    mkdirSync(path.join(dir, sub));
    chownSync(path.join(dir, sub), uid, gid);
  }
  chmodSync(dir, 0o755);
  return { internal: 'dovecot', internalGroup: 'dovecot', login: 'dovenull', uid, gid };
}

async function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const { port } = server.address() as { port: number };
      server.close(() => resolve(port));
    });
  });
}

/** Whether an IMAP LOGIN of the user succeeds. */
async function imapLogin(port: number, user: string, password: string): Promise<boolean> {
  const socket = connect(port, '127.0.0.1');
  socket.setEncoding('utf8');
  let text = '';
  let sent = false;
  try {
    for await (const chunk of socket) {
      text += chunk;
      if (!sent && text.startsWith('* OK')) {
        socket.write(`a LOGIN ${JSON.stringify(user)} ${JSON.stringify(password)}\r\n`);
        sent = true;
      }
      const result = /^a (OK|NO|BAD)/m.exec(text);
      if (result) return result[1] === 'OK';
    }
    return false;
  } catch {
    return false;
  } finally {
    socket.destroy();
  }
}

/** Resolves once the user can sign in (a refused attempt takes dovecot's 2 s failure delay). */
async function signsIn(port: number, user: string, password: string): Promise<void> {
  const deadline = Date.now() + 20_000;
  while (!(await imapLogin(port, user, password))) {
    if (Date.now() > deadline) throw new Error(`dovecot never signed ${user} in`);
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
}

/**
 * A private dovecot (IMAP only, plain text on loopback, maildir, a passwd-file of plain
 * passwords), run as the current user from a temp dir with no system configuration, with the
 * special-use Sent folder made for every user.
 */
export async function startDovecot(): Promise<Dovecot> {
  const dir = mkdtempSync(path.join(tmpdir(), 'hearth-dovecot-'));
  const port = await freePort();
  const accounts = mailUsers(dir);
  const users: string[] = [];
  const passwd = path.join(dir, 'passwd');
  writeFileSync(passwd, '');
  const conf = path.join(dir, 'dovecot.conf');
  writeFileSync(
    conf,
    `base_dir = ${dir}/run
state_dir = ${dir}/state
log_path = ${dir}/dovecot.log
protocols = imap
listen = 127.0.0.1
ssl = no
disable_plaintext_auth = no
auth_mechanisms = plain login
default_internal_user = ${accounts.internal}
default_internal_group = ${accounts.internalGroup}
default_login_user = ${accounts.login}
mail_location = maildir:${dir}/mail/%u
mail_uid = ${accounts.uid}
mail_gid = ${accounts.gid}
first_valid_uid = 1
first_valid_gid = 1
passdb {
  driver = passwd-file
  args = scheme=PLAIN username_format=%u ${passwd}
}
userdb {
  driver = static
  args = uid=${accounts.uid} gid=${accounts.gid} home=${dir}/home/%u
}
service imap-login {
  inet_listener imap {
    address = 127.0.0.1
    port = ${port}
  }
  inet_listener imaps {
    port = 0
  }
}
service anvil {
  chroot =
}
service imap-login {
  chroot =
}
namespace inbox {
  inbox = yes
  separator = /
  mailbox Sent {
    special_use = \\Sent
    auto = subscribe
  }
  mailbox Drafts {
    special_use = \\Drafts
    auto = subscribe
  }
}
`,
  );
  const check = spawnSync(DOVECOT, ['-n', '-c', conf], { encoding: 'utf8' });
  if (check.status !== 0) throw new Error(`dovecot -n refused the test config: ${check.stderr}`);
  const child = spawn(DOVECOT, ['-F', '-c', conf], { stdio: 'ignore' });
  let exited = false;
  child.on('exit', () => (exited = true));
  // Ready once the listener accepts a connection.
  for (let i = 0; i < 100; i++) {
    if (exited) throw new Error(`dovecot exited at start; see ${dir}/dovecot.log`);
    const ok = await new Promise<boolean>((resolve) => {
      const socket = connect(port, '127.0.0.1');
      socket.once('connect', () => (socket.destroy(), resolve(true)));
      socket.once('error', () => resolve(false));
    });
    if (ok) break;
    await new Promise((r) => setTimeout(r, 50));
  }
  return {
    host: '127.0.0.1',
    port,
    dir,
    async addUser(name, password) {
      users.push(`${name}:{PLAIN}${password}::::::`);
      // Written aside and renamed over the old file, so dovecot never reads one half-written (a
      // read between the truncation and the write failed a sign-in under load). It re-reads the
      // file when its mtime (in seconds) changes: each write gets its own.
      const next = `${passwd}.next`;
      writeFileSync(next, `${users.join('\n')}\n`);
      const stamp = Math.floor(Date.now() / 1000) + users.length;
      utimesSync(next, stamp, stamp);
      renameSync(next, passwd);
      // dovecot looks at the file at most once a second: a sign-in in the same second as the last
      // lookup still misses the new user. Wait until one works.
      await signsIn(port, name, password);
    },
    fillInbox(user, messages) {
      const root = path.join(dir, 'mail', user);
      for (const sub of ['', 'cur', 'new', 'tmp'])
        mkdirSync(path.join(root, sub), { recursive: true });
      let n = 0;
      for (const message of messages) {
        n++;
        writeFileSync(path.join(root, 'new', `${Date.now()}.M${n}P${process.pid}.hearth`), message);
      }
      if (accounts.uid !== userInfo().uid)
        spawnSync('chown', ['-R', `${accounts.uid}:${accounts.gid}`, root]);
      return n;
    },
    async stop() {
      if (!exited) {
        const gone = new Promise((r) => child.once('exit', r));
        child.kill('SIGTERM');
        await gone;
      }
      rmSync(dir, { recursive: true, force: true });
    },
  };
}
