export async function runReport(_a: string[]): Promise<number> { return 2; }
