/** The exact command that replays one shrunk fuzz case. */
export function reproduceCommand(options: { seed: number; path: string; harness?: string; cmd?: string; cassettes?: readonly string[] }): string {
  const parts = ["cua-contract fuzz", `--seed ${options.seed}`, "--runs 1", `--path ${options.path}`];
  if (options.cmd !== undefined) parts.push(`--cmd ${quote(options.cmd)}`);
  else if (options.harness && options.harness !== "reference") parts.push(`--harness ${options.harness}`);
  for (const c of options.cassettes ?? []) parts.push(`--cassette ${quote(c)}`);
  return parts.join(" ");
}

function quote(arg: string): string {
  return /^[\w@%+=:,./-]+$/.test(arg) ? arg : `'${arg.replaceAll("'", "'\\''")}'`;
}
