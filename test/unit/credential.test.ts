import { existsSync } from 'fs';
import { resolve } from 'path';

import { BusinessFinanceApi } from '../../credentials/BusinessFinanceApi.credentials';

describe('credential businessFinanceApi', () => {
	const credential = new BusinessFinanceApi();
	const field = (name: string) => credential.properties.find((p) => p.name === name)!;

	it('has the public name, display name and fields saved workflows depend on', () => {
		expect(credential.name).toBe('businessFinanceApi');
		expect(credential.displayName).toBe('Business Finance API');
		expect(credential.properties.map((p) => p.name)).toEqual([
			'apiKey',
			'baseUrl',
			'webhookSigningSecret',
		]);
		expect(field('apiKey')).toMatchObject({
			type: 'string',
			required: true,
			typeOptions: { password: true },
		});
		// No default: a user who leaves it empty is told to fill it in, not sent to their own machine.
		expect(field('baseUrl')).toMatchObject({ type: 'string', required: true, default: '' });
		expect(field('baseUrl').placeholder).toMatch(/^e\.g\. https:\/\//);
		expect(field('webhookSigningSecret')).toMatchObject({
			type: 'string',
			typeOptions: { password: true },
		});
		expect(field('webhookSigningSecret').required).toBeFalsy();
		expect(field('apiKey').description).toMatch(/Settings → API Keys/);
	});

	it('has a documentation URL and light/dark icons that exist', () => {
		expect(credential.documentationUrl).toMatch(/^https:\/\//);
		const icon = credential.icon as { light: string; dark: string };
		for (const file of [icon.light, icon.dark]) {
			expect(file).toMatch(/^file:\.\.\/icons\/businessFinance(\.dark)?\.svg$/);
			expect(existsSync(resolve(__dirname, '../../credentials', file.replace(/^file:/, '')))).toBe(
				true,
			);
		}
	});
});
