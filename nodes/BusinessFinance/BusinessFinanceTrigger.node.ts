import {
	NodeConnectionTypes,
	type IHookFunctions,
	type INodeType,
	type INodeTypeDescription,
} from 'n8n-workflow';

import { triggerBuilderHint } from './descriptions/builderHints';
import { eventsSubtitle } from './descriptions/events';
import { businessFinanceApiTest } from './transport/credential';
import { triggerProperties } from './trigger/description';
import { checkExists, create, deleteWebhook } from './trigger/lifecycle';
import { receive } from './trigger/receive';

export class BusinessFinanceTrigger implements INodeType {
	description: INodeTypeDescription = {
		displayName: 'Business Finance Trigger',
		name: 'businessFinanceTrigger',
		icon: {
			light: 'file:../../icons/businessFinance.svg',
			dark: 'file:../../icons/businessFinance.dark.svg',
		},
		group: ['trigger'],
		// 2: the same parameters and behaviour. n8n 2.x evaluates an expression for every delivery
		// to a start node at typeVersion 1 (a Webhook v1 leftover); new workflows get 2, saved
		// workflows keep 1 (docs/trigger.md, "What n8n charges a delivery").
		version: [1, 2],
		defaultVersion: 2,
		subtitle: eventsSubtitle('events'),
		// n8n's nodes panel merges this trigger with the Business Finance node into one entry and
		// shows this description for both, so it names the actions too.
		description:
			'Create invoices and bills, manage vendors, read treasury data, or start a workflow on a verified event of the Business Finance service',
		defaults: { name: 'Business Finance Trigger' },
		inputs: [],
		outputs: [NodeConnectionTypes.Main],
		credentials: [
			{
				// helpers/constants.ts CREDENTIAL_NAME, spelled out: n8n's lint rule credential-test-required
				// finds a credential's test only through a literal name beside testedBy in some node.
				name: 'businessFinanceApi',
				required: true,
				testedBy: 'businessFinanceApiTest',
			},
		],
		builderHint: triggerBuilderHint,
		activationMessage:
			"The service now sends the chosen events to this trigger's production webhook URL (in its panel, and in n8n's log). If nothing arrives, check that the service can reach that address.",
		webhooks: [
			{
				name: 'default',
				httpMethod: 'POST',
				responseMode: 'onReceived',
				path: 'webhook',
			},
		],
		properties: triggerProperties,
	};

	methods = { credentialTest: { businessFinanceApiTest } };

	webhookMethods = {
		default: {
			async checkExists(this: IHookFunctions): Promise<boolean> {
				return await checkExists.call(this);
			},
			async create(this: IHookFunctions): Promise<boolean> {
				return await create.call(this);
			},
			async delete(this: IHookFunctions): Promise<boolean> {
				return await deleteWebhook.call(this);
			},
		},
	};

	webhook = receive;
}
