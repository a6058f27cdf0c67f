/**
 * What the user reads in lists. n8n's guidelines: optional fields and list options are sorted A–Z
 * by it. Fields built from several sources (a collection with the payment details) are sorted here.
 */
import type { INodeProperties, INodePropertyOptions } from 'n8n-workflow';

const collator = new Intl.Collator('en', { sensitivity: 'base', numeric: true });

export function byDisplayName(fields: INodeProperties[]): INodeProperties[] {
	return [...fields].sort((a, b) => collator.compare(a.displayName, b.displayName));
}

export function byName(options: INodePropertyOptions[]): INodePropertyOptions[] {
	return [...options].sort((a, b) => collator.compare(a.name, b.name));
}

/** An API value as a label: "treasury.transaction.created" → "Treasury Transaction Created". */
export function labelOf(value: string): string {
	return value
		.split('.')
		.map((part) => part.charAt(0).toUpperCase() + part.slice(1))
		.join(' ');
}
