/**
 * Where n8n's Send Email node delivers in tests: just enough SMTP for a client without TLS or
 * login; a message's links are read so a test can open them as the recipient would.
 */
import * as net from 'net';
import type { AddressInfo } from 'net';

export interface Mail {
	from: string;
	to: string[];
	/** The message as sent: headers, a blank line, the body. */
	raw: string;
}

export interface SmtpServer {
	host: string;
	port: number;
	mails: Mail[];
	close(): Promise<void>;
}

export async function smtpServer(): Promise<SmtpServer> {
	const mails: Mail[] = [];
	const sockets = new Set<net.Socket>();
	const server = net.createServer((socket) => {
		sockets.add(socket);
		socket.on('close', () => sockets.delete(socket));
		socket.on('error', () => socket.destroy());
		converse(socket, (mail) => mails.push(mail));
	});
	await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
	return {
		host: '127.0.0.1',
		port: (server.address() as AddressInfo).port,
		mails,
		close: async () => {
			for (const socket of sockets) socket.destroy();
			await new Promise<void>((resolve) => server.close(() => resolve()));
		},
	};
}

/** One SMTP session: commands line by line, then the message up to a line with a lone dot. */
function converse(socket: net.Socket, deliver: (mail: Mail) => void): void {
	let buffer = '';
	let data: string[] | undefined;
	let mail: Mail = { from: '', to: [], raw: '' };
	const reply = (line: string) => socket.write(`${line}\r\n`);
	reply('220 localhost test SMTP');
	socket.setEncoding('latin1');
	socket.on('data', (chunk: string) => {
		buffer += chunk;
		for (let end = buffer.indexOf('\r\n'); end >= 0; end = buffer.indexOf('\r\n')) {
			const line = buffer.slice(0, end);
			buffer = buffer.slice(end + 2);
			if (data) {
				if (line !== '.') data.push(line.startsWith('..') ? line.slice(1) : line);
				else {
					deliver({ ...mail, raw: data.join('\r\n') });
					mail = { from: '', to: [], raw: '' };
					data = undefined;
					reply('250 OK: kept');
				}
				continue;
			}
			const verb = line.slice(0, 4).toUpperCase();
			if (verb === 'EHLO') reply('250 localhost');
			else if (verb === 'MAIL') mail.from = addressIn(line);
			else if (verb === 'RCPT') mail.to.push(addressIn(line));
			else if (verb === 'DATA') data = [];
			else if (verb === 'QUIT') return void socket.end('221 Bye\r\n');
			if (verb === 'DATA') reply('354 End data with <CR><LF>.<CR><LF>');
			else if (!['EHLO', 'QUIT'].includes(verb)) reply('250 OK');
		}
	});
}

const addressIn = (line: string) => /<([^>]*)>/.exec(line)?.[1] ?? '';

/** A message's body, decoded from quoted-printable or base64 as its header says. */
export function bodyOf(mail: Mail): string {
	const split = mail.raw.indexOf('\r\n\r\n');
	const headers = mail.raw.slice(0, split);
	const body = mail.raw.slice(split + 4);
	const encoding = /content-transfer-encoding:\s*([\w-]+)/i.exec(headers)?.[1].toLowerCase();
	if (encoding === 'base64') return Buffer.from(body, 'base64').toString('utf8');
	if (encoding !== 'quoted-printable') return body;
	const bytes = body
		.replace(/=\r\n/g, '')
		.replace(/=([0-9A-F]{2})/gi, (_, hex: string) => String.fromCharCode(parseInt(hex, 16)));
	return Buffer.from(bytes, 'latin1').toString('utf8');
}

/** The links of a message's HTML body, by their text: `{ Approve: 'http://…', … }`. */
export function linksOf(mail: Mail): Record<string, string> {
	const links: Record<string, string> = {};
	for (const [, href, text] of bodyOf(mail).matchAll(/<a href="([^"]+)"[^>]*>([^<]*)<\/a>/g)) {
		links[text.trim()] = href.replace(/&amp;/g, '&');
	}
	return links;
}
