/** Set by global-setup.ts for one run of the queue suite. */
export const RUN_DIR_VARIABLE = 'BF_QUEUE_RUN_DIR';

export function runDir(): string {
	const dir = process.env[RUN_DIR_VARIABLE];
	if (!dir)
		throw new Error(`${RUN_DIR_VARIABLE} is not set: run the suite with npm run test:e2e:queue`);
	return dir;
}
