/** Removes dist/ output whose source module no longer exists; returns the removed paths, relative to root. */
export function pruneDist(root: string): string[];
