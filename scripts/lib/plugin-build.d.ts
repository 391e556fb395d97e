export const ROOT: string
export const MEDUSA_CLI: string
export function pluginBuildIsFresh(): boolean
export function ensurePluginBuilt(opts: { rebuild?: boolean; logFile: string; env?: NodeJS.ProcessEnv; log?: (m: string) => void }): Promise<boolean>
export function linkPlugin(appDir: string): boolean
