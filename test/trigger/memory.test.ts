/** The trigger's two records in the process's memory (trigger/memory.ts): one cap each. */
import * as memory from '../../nodes/BusinessFinance/trigger/memory';

type Memory = typeof memory;

/** A module of its own, as a restarted n8n has. */
function freshMemory(): Memory {
	let fresh!: Memory;
	jest.isolateModules(() => (fresh = require('../../nodes/BusinessFinance/trigger/memory')));
	return fresh;
}

const logger = { warn: jest.fn<void, [string]>() };

it('a node record holds its registration and its failures; beyond MAX_NODES the least recently used goes whole', () => {
	const m = freshMemory();
	m.nodeMemory('a', 0, logger).registration = { endpointId: 'ep_a' };
	m.nodeMemory('a', 0, logger).failures = { counts: { clock: 1 }, details: {} };
	for (let n = 1; n < m.MAX_NODES; n++) m.nodeMemory(`n${n}`, 0, logger);
	m.nodeMemory('a', 0, logger); // used again: the oldest is now n1
	m.nodeMemory('one too many', 0, logger);
	expect(m.peekNode('n1')).toBeUndefined();
	expect(m.peekNode('a')).toEqual({
		registration: { endpointId: 'ep_a' },
		failures: { counts: { clock: 1 }, details: {} },
	});
	expect(logger.warn).not.toHaveBeenCalled(); // no ids went with n1
});

it('an endpoint record holds its secret and its original settings; beyond MAX_ENDPOINTS the least recently used goes', () => {
	const m = freshMemory();
	Object.assign(m.endpointMemory('ep_0'), { secret: 'whsec_x', original: { url: 'https://own' } });
	for (let n = 1; n <= m.MAX_ENDPOINTS; n++) m.endpointMemory(`ep_${n}`);
	expect(m.peekEndpoint('ep_0')).toBeUndefined();
	expect(m.peekEndpoint('ep_1')).toEqual({});
	m.forgetEndpoint('ep_1');
	expect(m.peekEndpoint('ep_1')).toBeUndefined();
});
