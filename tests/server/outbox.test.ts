// The outbox delivers through a real SMTP server (smtp-server) and marks mail sent.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { SMTPServer } from 'smtp-server';
import type { AddressInfo } from 'node:net';
import { eq } from 'drizzle-orm';
import { BACKENDS, createTestApp, login, type TestApp } from './helpers';
import { outbox } from '../../server/db/schema';
import { enqueueMail } from '../../server/outbox';

interface Received {
  from: string;
  to: string[];
  raw: string;
}

describe.each(BACKENDS)('outbox on %s', (backend) => {
  let t: TestApp;
  let smtp: SMTPServer;
  const received: Received[] = [];

  beforeAll(async () => {
    smtp = new SMTPServer({
      authOptional: true,
      disabledCommands: ['STARTTLS'],
      onData(stream, session, cb) {
        let raw = '';
        stream.on('data', (c: Buffer) => (raw += c.toString('utf8')));
        stream.on('end', () => {
          received.push({
            from: session.envelope.mailFrom ? session.envelope.mailFrom.address : '',
            to: session.envelope.rcptTo.map((r) => r.address),
            raw,
          });
          cb();
        });
      },
    });
    await new Promise<void>((resolve) => smtp.listen(0, '127.0.0.1', () => resolve()));
    const port = (smtp.server.address() as AddressInfo).port;
    t = await createTestApp(backend, { smtpUrl: `smtp://127.0.0.1:${port}` });
  });
  afterAll(async () => {
    await t?.close();
    await new Promise<void>((resolve) => smtp.close(() => resolve()));
  });

  it('sends the account-locked mail through SMTP and marks it sent', async () => {
    for (let i = 1; i <= 5; i++) await login(t.app, 'northridge', 'linh.nguyen@example.ca', `Wrong#Guess${i}`);
    await t.app.outboxSender!.flush();
    const [row] = await t.db.handle.db.select().from(outbox).where(eq(outbox.toAddress, 'linh.nguyen@example.ca'));
    expect(row.sentAt).not.toBeNull();
    expect(row.attempts).toBe(1);
    const mail = received.find((m) => m.to.includes('linh.nguyen@example.ca'));
    expect(mail).toBeDefined();
    expect(mail!.from).toBe('extendedday@northridge-sd.example');
    // Linh's language is Vietnamese; the subject is MIME-encoded UTF-8
    expect(mail!.raw).toMatch(/^Subject: =\?UTF-8\?/im);
    expect(row.subject).toBe('Northridge School District Extended Day: tài khoản của quý vị đã bị khóa');
  });

  it('sends each pending mail once', async () => {
    const before = received.length;
    await enqueueMail(t.db.handle.db, t.app.deps.clock, { providerId: null, kind: 'test', to: 'once@example.com', from: 'portal@example.com', subject: 'Once', text: 'Only once.' });
    await Promise.all([t.app.outboxSender!.flush(), t.app.outboxSender!.flush()]);
    await t.app.outboxSender!.flush();
    expect(received.length - before).toBe(1);
    expect(received.at(-1)!.raw).toContain('Only once.');
  });
});
