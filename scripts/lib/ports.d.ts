export function freePort(): Promise<number>
export function portInUse(port: number): Promise<boolean>
