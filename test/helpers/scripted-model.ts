/**
 * An OpenAI-compatible Chat Completions server on 127.0.0.1 that plays a script. The turn is read
 * from the ids of the tool calls the request replays (`call_<turn>_<index>`, kept even when a
 * client splits one turn's calls into several assistant messages, as n8n's AI Agent does), so a
 * retried request gets the same step again.
 */
import type { ServerResponse } from 'http';
import { BusinessFinance } from '../../nodes/BusinessFinance/BusinessFinance.node';
import { answer, bodyOf, scriptedServer } from './scripted-server';

export type Reply =
	{ toolCalls: Array<{ name: string; arguments: Record<string, unknown> }> } | { answer: string };

export interface ChatMessage {
	role: string;
	content?: unknown;
	tool_calls?: Array<{ id: string; function: { name: string; arguments: string } }>;
	tool_call_id?: string;
}

export interface ModelRequest {
	turn: number;
	model: string;
	messages: ChatMessage[];
	tools: Array<{ name: string; description?: string; parameters?: any }>;
	body: any;
}

export type Step = Reply | ((request: ModelRequest) => Reply);

export interface ScriptedModel {
	baseUrl: string; // what an OpenAI client takes: http://127.0.0.1:<port>/v1
	requests: ModelRequest[];
	close(): Promise<void>;
}

/** Starts the model; `script[n]` answers turn n. A turn past the script gets a 400. */
export async function scriptedModel(script: Step[]): Promise<ScriptedModel> {
	const requests: ModelRequest[] = [];
	const server = await scriptedServer((req, res) => {
		const path = (req.url ?? '').split('?')[0];
		if (req.method !== 'POST' || path !== '/v1/chat/completions') {
			failWith(res, 404, `${req.method} ${path} is not served by the scripted model`);
			return;
		}
		void bodyOf(req).then((raw) => {
			const request = recordOf(JSON.parse(raw.toString()));
			requests.push(request);
			const step = script[request.turn];
			if (!step) return failWith(res, 400, `the script has no step ${request.turn}`);
			if (request.body.stream) return failWith(res, 400, 'the scripted model does not stream');
			answer(res, 200, completion(request, typeof step === 'function' ? step(request) : step));
		});
	});
	return { baseUrl: `${server.baseUrl}/v1`, requests, close: server.close };
}

function recordOf(body: any): ModelRequest {
	const messages: ChatMessage[] = body.messages ?? [];
	return {
		turn: turnOf(messages),
		model: body.model,
		messages,
		tools: (body.tools ?? []).map((t: any) => t.function),
		body,
	};
}

/** One past the latest turn whose tool calls the messages replay (0 when there are none). */
function turnOf(messages: ChatMessage[]): number {
	let turn = 0;
	for (const call of messages.flatMap((m) => m.tool_calls ?? [])) {
		const asked = /^call_(\d+)_\d+$/.exec(call.id)?.[1];
		if (asked !== undefined) turn = Math.max(turn, Number(asked) + 1);
	}
	return turn;
}

/** A 4xx answer in OpenAI's error shape (its client does not retry those). */
function failWith(res: ServerResponse, status: number, message: string): void {
	answer(res, status, { error: { message, type: 'invalid_request_error', code: null } });
}

function completion(request: ModelRequest, reply: Reply) {
	const message =
		'answer' in reply
			? { role: 'assistant', content: reply.answer }
			: {
					role: 'assistant',
					content: null,
					tool_calls: reply.toolCalls.map((call, i) => ({
						id: `call_${request.turn}_${i}`,
						type: 'function',
						function: { name: call.name, arguments: JSON.stringify(call.arguments) },
					})),
				};
	return {
		id: `chatcmpl-scripted-${request.turn}`,
		object: 'chat.completion',
		created: 1_700_000_000 + request.turn,
		model: request.model,
		choices: [{ index: 0, message, finish_reason: 'answer' in reply ? 'stop' : 'tool_calls' }],
		usage: { prompt_tokens: 1, completion_tokens: 1, total_tokens: 2 },
	};
}

function textOf(message: ChatMessage): string {
	if (typeof message.content === 'string') return message.content;
	if (!Array.isArray(message.content)) return '';
	return message.content.map((part: any) => part?.text ?? '').join('');
}

/** What the model was told by each tool call in a request. */
export function toolResults(
	request: ModelRequest,
): Array<{ name: string; arguments: any; result: string }> {
	const calls = new Map<string, { name: string; arguments: any }>();
	for (const message of request.messages) {
		for (const call of message.tool_calls ?? []) {
			calls.set(call.id, {
				name: call.function.name,
				arguments: JSON.parse(call.function.arguments),
			});
		}
	}
	return request.messages
		.filter((m) => m.role === 'tool')
		.map((m) => ({
			...(calls.get(m.tool_call_id ?? '') ?? { name: '?', arguments: undefined }),
			result: textOf(m),
		}));
}

/** What n8n tells a model about an operation's tool when the node has no description. */
export function defaultToolDescription(resource: string, operation: string): string {
	const field = new BusinessFinance().description.properties.find(
		({ name, displayOptions }) =>
			name === 'toolDescription' &&
			displayOptions?.show?.resource?.includes(resource) &&
			displayOptions.show.operation?.includes(operation),
	);
	if (typeof field?.default !== 'string') throw new Error(`no tool description: ${operation}`);
	return field.default;
}
