// E-mail goes to the outbox table first (so a mail is never lost with a request), then a sender
// delivers pending mail through SMTP (nodemailer) when SMTP_URL is set. Without SMTP the mails stay
// readable in the table (and at GET /api/dev/outbox outside production).
import { and, asc, eq, isNull, lt } from 'drizzle-orm';
import nodemailer from 'nodemailer';
import type { Db } from './db/index';
import { outbox } from './db/schema';
import type { Clock } from './clock';
import { singleLine } from './inputChecks';

export interface OutboxMail {
  providerId: number | null;
  kind: string;
  to: string;
  from: string;
  subject: string;
  text: string;
  html?: string;
}

export async function enqueueMail(db: Db, clock: Clock, mail: OutboxMail): Promise<number> {
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
      createdAt: clock(),
    })
    .returning({ id: outbox.id });
  return row.id;
}

const MAX_ATTEMPTS = 5;

export interface OutboxSender {
  /** send every pending mail once; answers how many were sent */
  flush(): Promise<number>;
  start(intervalMs?: number): void;
  stop(): Promise<void>;
}

export function createOutboxSender(db: Db, clock: Clock, smtpUrl: string, log: { error: (o: unknown, m: string) => void }): OutboxSender {
  const transport = nodemailer.createTransport(smtpUrl);
  let timer: NodeJS.Timeout | undefined;
  let running: Promise<number> | undefined;

  const sendPending = async (): Promise<number> => {
    const pending = await db
      .select()
      .from(outbox)
      .where(and(isNull(outbox.sentAt), lt(outbox.attempts, MAX_ATTEMPTS)))
      .orderBy(asc(outbox.id))
      .limit(50);
    let sent = 0;
    for (const m of pending) {
      try {
        await transport.sendMail({
          from: m.fromAddress,
          to: m.toAddress,
          subject: m.subject,
          text: m.textBody,
          ...(m.htmlBody ? { html: m.htmlBody } : {}),
        });
        await db.update(outbox).set({ sentAt: clock(), attempts: m.attempts + 1, lastError: null }).where(eq(outbox.id, m.id));
        sent++;
      } catch (err) {
        log.error({ err, outboxId: m.id }, 'outbox: sending failed');
        await db
          .update(outbox)
          .set({ attempts: m.attempts + 1, lastError: String((err as Error).message ?? err) })
          .where(eq(outbox.id, m.id));
      }
    }
    return sent;
  };

  // one flush at a time, so a mail is never sent twice by overlapping ticks
  const flush = () => {
    if (!running) running = sendPending().finally(() => (running = undefined));
    return running;
  };

  return {
    flush,
    start(intervalMs = 5000) {
      timer = setInterval(() => void flush().catch(() => undefined), intervalMs);
      timer.unref();
    },
    async stop() {
      if (timer) clearInterval(timer);
      await running?.catch(() => undefined);
      transport.close();
    },
  };
}
