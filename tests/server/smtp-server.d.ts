// The parts of smtp-server the outbox test uses (the package ships no types).
declare module 'smtp-server' {
  import type { Server } from 'node:net';
  import type { Readable } from 'node:stream';

  export interface SMTPAddress {
    address: string;
  }
  export interface SMTPSession {
    envelope: { mailFrom: SMTPAddress | false; rcptTo: SMTPAddress[] };
  }
  export interface SMTPServerOptions {
    authOptional?: boolean;
    disabledCommands?: string[];
    logger?: boolean;
    onData?(stream: Readable, session: SMTPSession, callback: (err?: Error | null) => void): void;
  }
  export class SMTPServer {
    constructor(options?: SMTPServerOptions);
    server: Server;
    listen(port: number, host: string, callback?: () => void): void;
    close(callback?: () => void): void;
  }
}
