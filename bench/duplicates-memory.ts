/**
 * `npm run bench:duplicates`: what the trigger's duplicate memory (nodes/BusinessFinance/trigger/
 * duplicates.ts) costs on the V8 heap (docs/trigger.md, "Memory, measured"): bytes per id at a
 * burst's size and at a trigger's bound, with the service's ids and the longest accepted; bytes
 * per trigger; and a steady stream's heap per id held and time per delivery per tolerance window.
 * Each figure: the heap after a full collection minus the heap before, over the ids held. Writes
 * bench/results/duplicates-memory.json. Environment: DUP_STREAM_PER_S (1500),
 * DUP_STREAM_TOLERANCE_S (60), DUP_STREAM_WINDOWS (5), DUP_STREAM_ID_LENGTH (31), DUP_OUT.
 */
import * as path from 'path';
import { mkdirSync, writeFileSync } from 'fs';

import * as duplicates from '../nodes/BusinessFinance/trigger/duplicates';

const PER_S = Number(process.env.DUP_STREAM_PER_S ?? 1500);
const TOLERANCE_S = Number(process.env.DUP_STREAM_TOLERANCE_S ?? 60);
const WINDOWS = Number(process.env.DUP_STREAM_WINDOWS ?? 5);
const STREAM_ID_LENGTH = Number(process.env.DUP_STREAM_ID_LENGTH ?? 31);
const OUT = process.env.DUP_OUT ?? path.join(__dirname, 'results', 'duplicates-memory.json');

const gc = (global as { gc?: () => void }).gc;
if (!gc) throw new Error('run with node --expose-gc (npm run bench:duplicates)');

const log = { nodeName: 'bench', workflowId: 'bench', logger: { warn: () => undefined } };
const warnings: string[] = [];
const loud = { ...log, logger: { warn: (message: string) => void warnings.push(message) } };

function heapAfterGc(): number {
	for (let i = 0; i < 3; i++) gc!();
	return process.memoryUsage().heapUsed;
}

const ALPHABET = '0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz';
let serial = 0;
const newId = (length: number) => idOf(serial++, length);
/** Id number `n` as a header value arrives: a flat one-byte string of its own, `length` characters. */
function idOf(n: number, length: number): string {
	let tail = '';
	for (let i = 0; i < 27; i++) {
		tail += ALPHABET[n % 62];
		n = Math.floor(n / 62);
	}
	const text = `msg_${tail}`.padEnd(length, 'x').slice(0, length);
	return Buffer.from(text, 'latin1').toString('latin1');
}

/** Fills `perTrigger` ids into each of `triggers` triggers, measures, then lets them expire. */
function measureFill(name: string, idLength: number, perTrigger: number[]) {
	const now = Math.floor(Date.now() / 1000) + serial; // later than any earlier case's ids
	const before = heapAfterGc();
	perTrigger.forEach((count, t) => {
		for (let i = 0; i < count; i++) {
			duplicates.recordVerified(`bench-${name}-${t}`, newId(idLength), now + 1, now, log);
		}
	});
	const ids = perTrigger.reduce((sum, count) => sum + count, 0); // all below the bounds
	const filled = heapAfterGc();
	// Every id expired; one delivery per trigger gives them back.
	perTrigger.forEach((_, t) =>
		duplicates.recordVerified(`bench-${name}-${t}`, newId(idLength), now + 3, now + 2, log),
	);
	const left = heapAfterGc() - before;
	const bytesPerId = (filled - before) / ids;
	return {
		case: name,
		idLength,
		triggers: perTrigger.length,
		ids,
		bytesPerId: Math.round(bytesPerId),
		totalMB: Math.round(((filled - before) / 1e6) * 10) / 10,
		heapLeftAfterExpiryBytes: left,
	};
}

/** A steady stream: PER_S new ids a second, each retried once half a tolerance later. */
function measureStream() {
	const node = 'bench-stream';
	const start = Math.floor(Date.now() / 1000) + serial;
	const first = serial;
	const before = heapAfterGc();
	const micros: number[] = [];
	const recent: string[][] = [];
	for (let w = 0; w < WINDOWS; w++) {
		const began = process.hrtime.bigint();
		let deliveries = 0;
		for (let s = 0; s < TOLERANCE_S; s++) {
			const now = start + w * TOLERANCE_S + s;
			const ids = Array.from({ length: PER_S }, () => newId(STREAM_ID_LENGTH));
			recent.push(ids);
			const retried = recent.length > TOLERANCE_S / 2 ? recent.shift()! : [];
			for (const id of ids) duplicates.recordVerified(node, id, now + TOLERANCE_S, now, loud);
			for (const id of retried) duplicates.recordVerified(node, id, now + TOLERANCE_S, now, loud);
			deliveries += ids.length + retried.length;
		}
		micros.push(Number(process.hrtime.bigint() - began) / 1000 / deliveries);
	}
	recent.length = 0;
	const filled = heapAfterGc();
	const last = start + WINDOWS * TOLERANCE_S - 1;
	let held = 0;
	for (let n = first; n < serial; n++) {
		if (duplicates.wasSeen(node, idOf(n, STREAM_ID_LENGTH), last)) held++;
	}
	const end = start + WINDOWS * TOLERANCE_S + TOLERANCE_S + 1;
	duplicates.recordVerified(node, newId(31), end, end, log);
	return {
		idLength: STREAM_ID_LENGTH,
		perSecond: PER_S,
		toleranceS: TOLERANCE_S,
		windows: WINDOWS,
		heldAtEnd: held,
		bytesPerIdHeld: Math.round((filled - before) / held),
		microsPerDeliveryByWindow: micros.map((m) => Math.round(m * 100) / 100),
		heapLeftAfterExpiryBytes: heapAfterGc() - before,
		warnings: warnings.length,
	};
}

function main(): void {
	const perNode = duplicates.MAX_SEEN_PER_NODE;
	measureFill('warm-up', 31, [duplicates.IDS_PER_TOLERANCE_WINDOW]); // JIT and heap settle first
	const fills: Array<ReturnType<typeof measureFill>> = [];
	// One id for each of the most triggers the process tracks: the cost of a trigger, about.
	fills.push(measureFill('trigger-count-bound-31', 31, Array(duplicates.MAX_NODES).fill(1)));
	for (const idLength of [31, 256]) {
		fills.push(measureFill(`burst-${idLength}`, idLength, [duplicates.IDS_PER_TOLERANCE_WINDOW]));
		fills.push(measureFill(`trigger-bound-${idLength}`, idLength, [perNode]));
	}
	console.table(fills);
	const stream = measureStream();
	console.log(stream);
	const result = { node: process.version, date: new Date().toISOString(), fills, stream };
	mkdirSync(path.dirname(OUT), { recursive: true });
	writeFileSync(OUT, JSON.stringify(result, null, '\t') + '\n');
	console.log(`written: ${OUT}`);
}

main();
