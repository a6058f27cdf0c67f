/**
 * n8n's guidelines: optional fields and list options are sorted A–Z by what the user reads.
 * Fields built from several sources (a collection with the payment details) are sorted here.
 */
import type { INodeProperties, INodePropertyOptions } from 'n8n-workflow';

const collator = new Intl.Collator('en', { sensitivity: 'base', numeric: true });

/** Collection fields, A–Z by display name. */
export function byDisplayName(fields: INodeProperties[]): INodeProperties[] {
	return [...fields].sort((a, b) => collator.compare(a.displayName, b.displayName));
}

/** List options, A–Z by name. */
export function byName(options: INodePropertyOptions[]): INodePropertyOptions[] {
	return [...options].sort((a, b) => collator.compare(a.name, b.name));
}
