export const REQUIRED_FILES: string[]
export function isUnwanted(file: string): boolean
export function packageProblems(files: string[]): string[]
