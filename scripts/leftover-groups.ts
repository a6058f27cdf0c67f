// Lets a later process (jest's globalTeardown) end what a crashed run left behind. The leader's
// start time is recorded so that a reused process id is never killed.
import * as fs from 'fs';

export const GROUPS_FILE_VARIABLE = 'BF_PROCESS_GROUPS_FILE';

export function recordGroup(pid: number, name: string): void {
	const file = process.env[GROUPS_FILE_VARIABLE];
	if (!file) return;
	fs.appendFileSync(file, `${pid} ${startTime(pid) ?? '-'} ${name}\n`);
}

export function killRecordedGroups(file: string): string[] {
	if (!fs.existsSync(file)) return [];
	const killed: string[] = [];
	for (const line of fs.readFileSync(file, 'utf8').split('\n')) {
		const [pidText, started, ...name] = line.split(' ');
		const pid = Number(pidText);
		if (!Number.isInteger(pid) || pid <= 1 || startTime(pid) !== started) continue;
		try {
			process.kill(-pid, 'SIGKILL');
			killed.push(name.join(' '));
		} catch {
			// already gone
		}
	}
	return killed;
}

/** Field 22 of /proc/<pid>/stat: clock ticks since boot. */
const startTime = (pid: number) => statFieldsAfterName(pid)?.[19];

/**
 * /proc/<pid>/stat from field 3 on (the command name, field 2, is in parentheses and may hold
 * spaces); undefined when the process is gone.
 */
export function statFieldsAfterName(pid: number | string): string[] | undefined {
	try {
		const stat = fs.readFileSync(`/proc/${pid}/stat`, 'utf8');
		return stat.slice(stat.lastIndexOf(')') + 2).split(' ');
	} catch {
		return undefined;
	}
}
