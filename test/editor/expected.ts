/**
 * By parameter *name* (public: saved workflows depend on them). Labels, hints and notice texts
 * are read from the nodes' descriptions, so display-text changes need no edit here.
 */
import type { INodeProperties, INodePropertyOptions } from 'n8n-workflow';
import { BusinessFinance } from '../../nodes/BusinessFinance/BusinessFinance.node';
import { BusinessFinanceTrigger } from '../../nodes/BusinessFinance/BusinessFinanceTrigger.node';

export interface PanelExpectation {
	resource: string;
	operation: string;
	parameters: string[]; // shown by default after resource and operation, in order
	notices?: string[];
}

/** One operation of each resource, picked in the panel one after the other. */
export const ACTION_PANELS: PanelExpectation[] = [
	{
		resource: 'payable',
		operation: 'create',
		parameters: ['invoiceNumber', 'amount', 'vendorId', 'additionalFields', 'options'],
	},
	{
		resource: 'receivable',
		operation: 'send',
		parameters: ['receivableId', 'options'],
		notices: ['sendNotice'],
	},
	{
		resource: 'treasury',
		operation: 'getTransactions',
		parameters: ['returnAll', 'limit', 'simplify', 'filters', 'options'],
	},
	{
		resource: 'vendor',
		operation: 'create',
		parameters: ['name', 'paymentMethod', 'additionalFields', 'options'],
	},
	{
		resource: 'webhookEndpoint',
		operation: 'update',
		parameters: ['webhookEndpointId', 'updateFields', 'options'],
	},
];

export const TRIGGER_PANEL: { parameters: string[]; notices: string[] } = {
	parameters: ['webhookEndpointId', 'events', 'options'],
	notices: [],
};

const actionProperties = new BusinessFinance().description.properties;
const triggerProperties = new BusinessFinanceTrigger().description.properties;

function showsFor(property: INodeProperties, resource?: string, operation?: string): boolean {
	const show = property.displayOptions?.show ?? {};
	const allows = (key: string, value?: string) =>
		!show[key] || (value !== undefined && (show[key] as unknown[]).includes(value));
	return allows('resource', resource) && allows('operation', operation);
}

export function actionProperty(name: string, resource: string, operation: string): INodeProperties {
	const found = actionProperties.find((p) => p.name === name && showsFor(p, resource, operation));
	if (!found) throw new Error(`no parameter ${name} for ${resource} / ${operation}`);
	return found;
}

export function triggerProperty(name: string): INodeProperties {
	const found = triggerProperties.find((p) => p.name === name);
	if (!found) throw new Error(`the trigger has no parameter ${name}`);
	return found;
}

export function optionName(property: INodeProperties, value: string): string {
	const option = (property.options as INodePropertyOptions[] | undefined)?.find(
		(o) => o.value === value,
	);
	if (!option) throw new Error(`${property.name} has no option ${value}`);
	return option.name;
}
