/**
 * Which TCP addresses a set of process groups listens on, read from /proc (Linux): every process
 * of each group, its socket inodes, and the listening entries of /proc/net/tcp and tcp6 that
 * match them. Needs the right to read the processes' fd folders (the same user, or root).
 */
import * as fs from 'fs';

interface Listener {
	address: string;
	port: number;
}

const LISTEN_STATE = '0A';

export function listeners(groupIds: number[]): Listener[] {
	const sockets = listeningSockets();
	const found: Listener[] = [];
	for (const pid of processesOf(groupIds).keys()) {
		for (const inode of socketInodes(pid)) {
			const socket = sockets.get(inode);
			if (socket) found.push(socket);
		}
	}
	return found;
}

/** pid → its group, for the processes whose group is one of groupIds. */
export function processesOf(groupIds: number[]): Map<number, number> {
	const wanted = new Set(groupIds);
	const found = new Map<number, number>();
	for (const name of fs.readdirSync('/proc')) {
		if (!/^\d+$/.test(name)) continue;
		try {
			const stat = fs.readFileSync(`/proc/${name}/stat`, 'utf8');
			// Field 5 is the group; the command name (field 2) may hold spaces: count after it.
			const group = Number(stat.slice(stat.lastIndexOf(')') + 2).split(' ')[2]);
			if (wanted.has(group)) found.set(Number(name), group);
		} catch {
			// the process ended meanwhile
		}
	}
	return found;
}

function socketInodes(pid: number): string[] {
	try {
		return fs
			.readdirSync(`/proc/${pid}/fd`)
			.map((fd) => fs.readlinkSync(`/proc/${pid}/fd/${fd}`, { encoding: 'utf8' }))
			.map((target) => /^socket:\[(\d+)\]$/.exec(target)?.[1])
			.filter((inode): inode is string => inode !== undefined);
	} catch {
		return [];
	}
}

/** inode → address of every listening TCP socket on the machine. */
function listeningSockets(): Map<string, Listener> {
	const sockets = new Map<string, Listener>();
	for (const file of ['/proc/net/tcp', '/proc/net/tcp6']) {
		if (!fs.existsSync(file)) continue;
		for (const line of fs.readFileSync(file, 'utf8').split('\n').slice(1)) {
			const fields = line.trim().split(/\s+/);
			if (fields.length < 10 || fields[3] !== LISTEN_STATE) continue;
			const [hexAddress, hexPort] = fields[1].split(':');
			sockets.set(fields[9], { address: decodeAddress(hexAddress), port: parseInt(hexPort, 16) });
		}
	}
	return sockets;
}

/** /proc/net/tcp's addresses: IPv4 as one little-endian word, IPv6 as four. */
function decodeAddress(hex: string): string {
	const words = hex.match(/.{8}/g) ?? [];
	const bytes = words.flatMap((word) =>
		(word.match(/../g) ?? []).reverse().map((b) => parseInt(b, 16)),
	);
	if (bytes.length === 4) return bytes.join('.');
	const isV4Mapped =
		bytes.slice(0, 10).every((b) => b === 0) && bytes[10] === 255 && bytes[11] === 255;
	if (isV4Mapped) return `::ffff:${bytes.slice(12).join('.')}`;
	const groups = [];
	for (let i = 0; i < 16; i += 2) groups.push(((bytes[i] << 8) | bytes[i + 1]).toString(16));
	return groups.join(':').replace(/(^|:)0(:0)+(:|$)/, '::');
}
