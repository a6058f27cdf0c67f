import { NodeConnectionTypes, type INodeType, type INodeTypeDescription } from 'n8n-workflow';

import { pollingBuilderHint } from './descriptions/builderHints';
import { CREDENTIAL_NAME } from './helpers/constants';
import { pollingTriggerProperties } from './polling/description';
import { poll as pollNewItems } from './polling/poll';
import { businessFinanceApiTest } from './transport/credential';

export class BusinessFinancePollingTrigger implements INodeType {
	description: INodeTypeDescription = {
		displayName: 'Business Finance Polling Trigger',
		name: 'businessFinancePollingTrigger',
		icon: {
			light: 'file:../../icons/businessFinance.svg',
			dark: 'file:../../icons/businessFinance.dark.svg',
		},
		group: ['trigger'],
		version: 1,
		subtitle: '={{$parameter["event"]}}',
		description:
			'Starts the workflow on new transactions, new vendors or changed vendors, found by polling the Business Finance service (no public URL needed)',
		defaults: { name: 'Business Finance Polling Trigger' },
		polling: true,
		builderHint: pollingBuilderHint,
		inputs: [],
		outputs: [NodeConnectionTypes.Main],
		credentials: [{ name: CREDENTIAL_NAME, required: true, testedBy: 'businessFinanceApiTest' }],
		properties: pollingTriggerProperties,
	};

	methods = { credentialTest: { businessFinanceApiTest } };

	poll = pollNewItems;
}
