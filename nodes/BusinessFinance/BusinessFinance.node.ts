import {
	NodeConnectionTypes,
	type IExecuteFunctions,
	type INodeExecutionData,
	type INodeType,
	type INodeTypeDescription,
} from 'n8n-workflow';
import {
	allOperations,
	checkedBeforeSending,
	RESOURCES,
	resourceOptions,
} from './actions/resources';
import { router } from './actions/router';
import {
	CREDENTIAL_NAME,
	DEFAULT_RATE_LIMIT_WAIT_SECONDS,
	MAX_RATE_LIMIT_WAIT_SECONDS,
	RATE_LIMIT_TEXT,
} from './helpers/constants';
import { searchVendors } from './methods/listSearch';
import { businessFinanceApiTest } from './transport/credential';
import { collection } from './descriptions/common';
import { toolDescriptionFields, toolOutputFields } from './descriptions/tool';
import { actionBuilderHint } from './descriptions/builderHints';

export class BusinessFinance implements INodeType {
	description: INodeTypeDescription = {
		displayName: 'Business Finance',
		name: 'businessFinance',
		icon: {
			light: 'file:../../icons/businessFinance.svg',
			dark: 'file:../../icons/businessFinance.dark.svg',
		},
		group: ['transform'],
		version: 1,
		subtitle: '={{$parameter["operation"] + ": " + $parameter["resource"]}}',
		description:
			'Create invoices and bills, manage vendors, read treasury data and webhook endpoints',
		defaults: { name: 'Business Finance' },
		usableAsTool: true,
		builderHint: actionBuilderHint,
		inputs: [NodeConnectionTypes.Main],
		outputs: [NodeConnectionTypes.Main],
		credentials: [{ name: CREDENTIAL_NAME, required: true, testedBy: 'businessFinanceApiTest' }],
		properties: [
			{
				displayName: 'Resource',
				name: 'resource',
				type: 'options',
				noDataExpression: true,
				options: resourceOptions(),
				default: 'receivable',
			},
			...Object.values(RESOURCES).flatMap((resource) => resource.description),
			...toolDescriptionFields(allOperations()),
			...toolOutputFields,
			collection('options', [
				{
					displayName: 'Max Wait for Rate Limits (Seconds)',
					name: 'rateLimitWaitSeconds',
					type: 'number',
					typeOptions: { minValue: 0, maxValue: MAX_RATE_LIMIT_WAIT_SECONDS },
					default: DEFAULT_RATE_LIMIT_WAIT_SECONDS,
					description: `How long in total each item may take, its requests included, when the service’s rate limit (${RATE_LIMIT_TEXT}) is reached or a request has to be retried; once it is used up, the next wait or retry fails. 0 fails at once. At most ${MAX_RATE_LIMIT_WAIT_SECONDS} seconds (one day).`,
				},
				{
					displayName: 'Validate All Before Sending',
					name: 'validateAllBeforeSending',
					type: 'boolean',
					default: false,
					description:
						'Whether to check every input item before the first request, and send nothing if any item is invalid. The node then fails with one error listing every invalid item and why (with On Error: Continue, one error item per input item). Off: valid items are sent one by one until an invalid one stops the node.',
					hint: 'Use for batches from a sheet: a half-sent batch of invoices or bills is harder to repair than none',
					displayOptions: { show: checkedBeforeSending() },
				},
			]),
		],
	};

	methods = {
		listSearch: { searchVendors },
		credentialTest: { businessFinanceApiTest },
	};

	async execute(this: IExecuteFunctions): Promise<INodeExecutionData[][]> {
		return await router.call(this, this.continueOnFail());
	}
}
