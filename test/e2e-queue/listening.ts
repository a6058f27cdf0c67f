/** Linux only (/proc, `ss`); needs the right to see the processes' sockets (same user or root). */
import { execFileSync } from 'child_process';
import * as fs from 'fs';
import { statFieldsAfterName } from '../../scripts/leftover-groups';

interface Listener {
	address: string;
	port: number;
}

export function listeners(groupIds: number[]): Listener[] {
	const pids = processesOf(groupIds);
	const lines = execFileSync('ss', ['-ltnpH'], { encoding: 'utf8' }).split('\n');
	return lines.flatMap((line) => {
		// State, Recv-Q, Send-Q, local address:port, peer, users:(("name",pid=N,fd=M),...)
		const local = line.trim().split(/\s+/)[3] ?? '';
		const owners = [...line.matchAll(/pid=(\d+)/g)].map((match) => Number(match[1]));
		if (!owners.some((pid) => pids.has(pid))) return [];
		const at = local.lastIndexOf(':');
		const address = local.slice(0, at).replace(/^\[(.*)\]$/, '$1');
		return [{ address, port: Number(local.slice(at + 1)) }];
	});
}

/** pid → its group, for the processes whose group is one of groupIds. */
export function processesOf(groupIds: number[]): Map<number, number> {
	const wanted = new Set(groupIds);
	const found = new Map<number, number>();
	for (const name of fs.readdirSync('/proc')) {
		if (!/^\d+$/.test(name)) continue;
		const group = Number(statFieldsAfterName(name)?.[2]); // field 5
		if (wanted.has(group)) found.set(Number(name), group);
	}
	return found;
}
