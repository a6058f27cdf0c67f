/** Injected faults: the next N matching requests (or a fraction of them) fail a given way. */
import { prng } from './util';
import type { FaultKind, FaultSpec } from './types';

interface ActiveFault extends FaultSpec {
	remaining: number;
}

export interface FaultDecision {
	latencyMs: number;
	terminal?: Exclude<FaultKind, 'latency'>;
	/** The request is processed first; its answer is then replaced by the fault. */
	afterProcessing?: boolean;
}

export class Faults {
	private active: ActiveFault[] = [];
	private nextId = 1;
	private rand = prng(42);

	add(spec: FaultSpec): string {
		const remaining = spec.count ?? (spec.rate === undefined ? 1 : Infinity);
		this.active.push({ ...spec, method: spec.method?.toUpperCase(), remaining });
		return `flt_${this.nextId++}`;
	}

	clear(): void {
		this.active = [];
		this.rand = prng(42);
	}

	get size(): number {
		return this.active.length;
	}

	/** Decides (and consumes) the faults for one request. */
	decide(method: string, path: string): FaultDecision | undefined {
		if (this.active.length === 0) return undefined;
		const decision: FaultDecision = { latencyMs: 0 };
		let fired = false;
		for (const f of this.active) {
			if (decision.terminal && f.kind !== 'latency') continue;
			if (f.method && f.method !== method) continue;
			if (f.pathPrefix && !path.startsWith(f.pathPrefix)) continue;
			if (f.rate !== undefined && !(this.rand() < f.rate)) continue;
			f.remaining--;
			fired = true;
			if (f.kind === 'latency') decision.latencyMs += f.latencyMs ?? 1000;
			else Object.assign(decision, { terminal: f.kind, afterProcessing: f.afterProcessing });
		}
		this.active = this.active.filter((f) => f.remaining > 0);
		return fired ? decision : undefined;
	}
}
