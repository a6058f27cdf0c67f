/**
 * The scripted model (test/helpers/scripted-model.ts) as an OpenAI client meets it, checked here
 * without n8n so that the AI Agent suite's failures are about n8n and the node, not the double.
 */
import { scriptedModel, toolResults, type ScriptedModel } from '../helpers/scripted-model';

let model: ScriptedModel;

beforeAll(async () => {
	model = await scriptedModel([
		{ toolCalls: [{ name: 'find', arguments: { q: 'a' } }] },
		(request) => ({ answer: `told: ${toolResults(request)[0].result}` }),
	]);
});
afterAll(async () => await model.close());

const complete = async (messages: unknown[]) => {
	const res = await fetch(`${model.baseUrl}/chat/completions`, {
		method: 'POST',
		headers: { 'content-type': 'application/json' },
		body: JSON.stringify({
			model: model.model,
			messages,
			tools: [{ type: 'function', function: { name: 'find' } }],
		}),
	});
	return { status: res.status, body: (await res.json()) as any };
};

it('lists its model, plays its steps by turn, records each request, and refuses a turn past the script', async () => {
	const models = (await (await fetch(`${model.baseUrl}/models`)).json()) as any;
	expect(models.data).toEqual([expect.objectContaining({ id: model.model })]);

	const user = { role: 'user', content: 'go' };
	const first = await complete([user]);
	const call = first.body.choices[0].message.tool_calls[0];
	expect(call).toMatchObject({
		id: 'call_0_0',
		function: { name: 'find', arguments: '{"q":"a"}' },
	});
	expect(first.body.choices[0].finish_reason).toBe('tool_calls');

	const replayed = [user, { role: 'assistant', content: '', tool_calls: [call] }];
	const result = { role: 'tool', tool_call_id: call.id, content: [{ type: 'text', text: '[1]' }] };
	const second = await complete([...replayed, result]);
	expect(second.body.choices[0].message).toEqual({ role: 'assistant', content: 'told: [1]' });
	// The same turn again (a retry) gets the same step.
	expect((await complete([...replayed, result])).body).toEqual(second.body);

	expect(model.requests.map((r) => r.turn)).toEqual([0, 1, 1]);
	expect(model.requests[0].tools).toEqual([{ name: 'find' }]);
	expect(toolResults(model.requests[1])).toEqual([
		{ name: 'find', arguments: { q: 'a' }, result: '[1]' },
	]);

	const past = { role: 'assistant', content: '', tool_calls: [{ ...call, id: 'call_1_0' }] };
	expect((await complete([user, past])).status).toBe(400);
});
