// E-mail goes to the outbox table first (so a mail is never lost with a request), then a sender
// delivers pending mail through SMTP (nodemailer) when SMTP_URL is set, each mail once across
// instances. Without SMTP the mails stay readable in the table (and at GET /api/dev/outbox outside
// production).
import { randomBytes } from 'node:crypto';
import { hostname } from 'node:os';
import { and, asc, eq, inArray, isNull, lt, or } from 'drizzle-orm';
import nodemailer, { type Transporter } from 'nodemailer';
import type SMTPTransport from 'nodemailer/lib/smtp-transport';
import type { Db, DbOrTx } from './db/index';
import { outbox } from './db/schema';
import type { Clock } from './clock';
import { singleLine } from './inputChecks';
import { backoffDelay } from './jobs/runner';
import { errorMessage } from './json';

export interface OutboxMail {
  providerId: number | null;
  kind: string;
  to: string;
  from: string;
  subject: string;
  text: string;
  html?: string;
  /** files sent with it (an automatic payment agreement's PDF) */
  attachments?: { filename: string; contentType: string; base64: string }[];
}

export async function enqueueMail(db: DbOrTx, clock: Clock, mail: OutboxMail): Promise<number> {
  const [row] = await db
    .insert(outbox)
    .values({
      providerId: mail.providerId,
      kind: mail.kind,
      // header fields are one line whatever a caller passes (no header injection)
      toAddress: singleLine(mail.to),
      fromAddress: singleLine(mail.from),
      subject: singleLine(mail.subject),
      textBody: mail.text,
      htmlBody: mail.html ?? null,
      attachments: mail.attachments?.length ? mail.attachments : null,
      createdAt: clock(),
    })
    .returning({ id: outbox.id });
  return row.id;
}

const MAX_ATTEMPTS = 5;
/** SMTP connections kept open, and mails sent at once (each waits on its server's answers) */
const SMTP_CONNECTIONS = 4;
/** mails claimed at once */
const BATCH = 50;
/** a claim's length; renewed every third of it while its mail is being sent */
export const OUTBOX_LEASE_MS = 60_000;
/** the first retry of a failed mail; each next one doubles (30 s, 1, 2, 4 min) */
const RETRY_MS = 30_000;

export interface OutboxSender {
  /** sends every pending mail it can claim, each once across instances; answers how many were sent */
  flush(): Promise<number>;
  stop(): Promise<void>;
}

export interface OutboxSenderOptions {
  /** this sender's name in claimed_by (one per instance) */
  id?: string;
  /** a claim's length (OUTBOX_LEASE_MS) */
  leaseMs?: number;
  /** SMTP connections, and mails sent at once (SMTP_CONNECTIONS) */
  connections?: number;
}

/**
 * The sender: every mail is claimed (claimed_by, lease_until) with FOR UPDATE SKIP LOCKED before it
 * is sent, so two instances never send one mail. A mail is sent again only when its sender dies
 * between the SMTP server's acceptance and the UPDATE that marks it sent (a few milliseconds), once
 * its claim has ended. The job runner calls flush() every few seconds (server/jobs/registry.ts); a
 * request that queued mail calls it at once.
 */
/** Pooled: a few connections kept open and reused, not one SMTP handshake per mail. */
function pooledTransport(url: string, connections: number): Transporter<SMTPTransport.SentMessageInfo> {
  // the pool's settings beside the SMTP ones (nodemailer's SMTP-pool options; the sent mail's info is the same)
  const options: SMTPTransport.Options & { pool: true; maxConnections: number } = {
    url,
    pool: true,
    maxConnections: connections,
    connectionTimeout: 30_000,
    greetingTimeout: 30_000,
    socketTimeout: 60_000,
  };
  return nodemailer.createTransport(options);
}

export function createOutboxSender(
  db: Db,
  clock: Clock,
  smtp: string | Transporter,
  log: { error: (o: unknown, m: string) => void },
  opts: OutboxSenderOptions = {},
): OutboxSender {
  const connections = Math.max(1, opts.connections ?? SMTP_CONNECTIONS);
  const transport = typeof smtp === 'string' ? pooledTransport(smtp, connections) : smtp;
  const me = opts.id ?? `${hostname()}:${process.pid}:${randomBytes(4).toString('hex')}`;
  const leaseMs = opts.leaseMs ?? OUTBOX_LEASE_MS;
  let running: Promise<number> | undefined;
  let stopped = false;
  const mine = (id: number) => and(eq(outbox.id, id), eq(outbox.claimedBy, me), isNull(outbox.sentAt));

  const claim = async () => {
    const now = clock();
    const due = db
      .select({ id: outbox.id })
      .from(outbox)
      .where(and(isNull(outbox.sentAt), lt(outbox.attempts, MAX_ATTEMPTS), or(isNull(outbox.leaseUntil), lt(outbox.leaseUntil, now))))
      .orderBy(asc(outbox.id))
      .limit(BATCH)
      .for('update', { skipLocked: true });
    const rows = await db
      .update(outbox)
      .set({ claimedBy: me, leaseUntil: new Date(now.getTime() + leaseMs) })
      .where(inArray(outbox.id, due))
      .returning();
    return rows.sort((a, b) => a.id - b.id);
  };

  const sendPending = async (): Promise<number> => {
    let sent = 0;
    // batch after batch; a failed mail waits for its retry time, so this ends
    while (!stopped) {
      const claimed = await claim();
      if (!claimed.length) break;
      // a few at once, one per pooled SMTP connection: each mail waits on the SMTP server's answers
      let next = 0;
      const sendOne = async (m: (typeof claimed)[number]) => {
        // the claim again, just before sending: a slow batch may have outlived it for the last mails
        const renew = () => db.update(outbox).set({ leaseUntil: new Date(clock().getTime() + leaseMs) }).where(mine(m.id)).returning({ id: outbox.id });
        const [held] = await renew();
        if (!held || stopped) return;
        // a slow SMTP server keeps the claim; a sender that dies stops renewing it
        const beat = setInterval(() => void renew().catch((err) => log.error({ err, outboxId: m.id }, 'outbox: renewing a claim failed')), leaseMs / 3);
        try {
          await transport.sendMail({
            from: m.fromAddress,
            to: m.toAddress,
            subject: m.subject,
            text: m.textBody,
            ...(m.htmlBody ? { html: m.htmlBody } : {}),
            ...(m.attachments?.length ? { attachments: m.attachments.map((a) => ({ filename: a.filename, contentType: a.contentType, content: Buffer.from(a.base64, 'base64') })) } : {}),
          });
        } catch (err) {
          clearInterval(beat);
          log.error({ err, outboxId: m.id }, 'outbox: sending failed');
          const retryAt = new Date(clock().getTime() + backoffDelay(RETRY_MS, m.attempts + 1));
          await db
            .update(outbox)
            .set({ attempts: m.attempts + 1, lastError: errorMessage(err), claimedBy: null, leaseUntil: retryAt })
            .where(mine(m.id));
          return;
        }
        clearInterval(beat);
        await db.update(outbox).set({ sentAt: clock(), attempts: m.attempts + 1, lastError: null, claimedBy: null, leaseUntil: null }).where(mine(m.id));
        sent++;
      };
      await Promise.all(
        Array.from({ length: Math.min(connections, claimed.length) }, async () => {
          while (next < claimed.length) await sendOne(claimed[next++]);
        }),
      );
      // mails of this batch not started (stopping): their claim ends now
      if (stopped) await db.update(outbox).set({ claimedBy: null, leaseUntil: null }).where(and(inArray(outbox.id, claimed.map((m) => m.id)), eq(outbox.claimedBy, me), isNull(outbox.sentAt)));
    }
    return sent;
  };

  // one flush at a time in this process; other processes are kept off by the claims
  const flush = () => {
    if (stopped) return Promise.resolve(0);
    if (!running) running = sendPending().finally(() => (running = undefined));
    return running;
  };

  return {
    flush,
    async stop() {
      stopped = true;
      await running?.catch(() => undefined);
      transport.close();
    },
  };
}
