import * as net from 'net';

export async function freePort(): Promise<number> {
	return await new Promise((resolve, reject) => {
		const server = net.createServer();
		server.unref();
		server.on('error', reject);
		server.listen(0, '127.0.0.1', () => {
			const address = server.address();
			const port = typeof address === 'object' && address ? address.port : 0;
			server.close(() => resolve(port));
		});
	});
}

export async function portOrFree(preferred: number): Promise<number> {
	if (preferred === 0) return await freePort();
	const free = await new Promise<boolean>((resolve) => {
		const probe = net.createServer();
		probe.once('error', () => resolve(false));
		probe.listen(preferred, '127.0.0.1', () => probe.close(() => resolve(true)));
	});
	return free ? preferred : await freePort();
}
