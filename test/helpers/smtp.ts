import type { AddressInfo } from 'node:net';
import { type ParsedMail, simpleParser } from 'mailparser';
import { SMTPServer } from 'smtp-server';

/**
 * A real SMTP server for the email tests (smtp-server), on a free port of 127.0.0.1: every
 * message it accepts is parsed (mailparser) and kept in `received`. `refuse` makes it answer
 * the next messages' DATA with an SMTP error (a 4xx is retried by Skein, a 5xx is not);
 * `onConnect` can hold a connection.
 */
export class SmtpTestServer {
  readonly received: ParsedMail[] = [];
  /** Set to an SMTP code (451, 550) to refuse messages; null accepts them. */
  refuse: number | null = null;
  /**
   * Called as a client connects; answering true holds that connection unanswered (no greeting),
   * so nothing can be sent on it: a system test kills the sending worker right there.
   */
  onConnect: () => boolean = () => false;
  #server: SMTPServer;

  constructor() {
    this.#server = new SMTPServer({
      // Plain SMTP on loopback: no STARTTLS (its self-signed certificate) and no sign-in.
      disabledCommands: ['STARTTLS', 'AUTH'],
      logger: false,
      onConnect: (_session, callback) => {
        if (!this.onConnect()) callback();
      },
      onData: (stream, _session, callback) => {
        const chunks: Buffer[] = [];
        stream.on('data', (chunk: Buffer) => chunks.push(chunk));
        stream.on('end', () => {
          if (this.refuse !== null) {
            const err = Object.assign(new Error('refused by the test'), { responseCode: this.refuse });
            callback(err);
            return;
          }
          simpleParser(Buffer.concat(chunks)).then(
            (mail) => {
              this.received.push(mail);
              callback();
            },
            (err: Error) => callback(err),
          );
        });
      },
    });
  }

  async start(): Promise<void> {
    await new Promise<void>((resolve, reject) => {
      this.#server.once('error', reject);
      this.#server.listen(0, '127.0.0.1', () => resolve());
    });
  }

  /** `smtp://127.0.0.1:<port>`, for SKEIN_SMTP_URL. */
  get url(): string {
    const { port } = this.#server.server.address() as AddressInfo;
    return `smtp://127.0.0.1:${port}`;
  }

  /** The messages sent to `to`. */
  to(to: string): ParsedMail[] {
    return this.received.filter((m) => (Array.isArray(m.to) ? m.to : m.to ? [m.to] : []).some((a) => a.value.some((v) => v.address === to)));
  }

  stop(): Promise<void> {
    return new Promise((resolve) => this.#server.close(() => resolve()));
  }
}
