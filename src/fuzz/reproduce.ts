/**
 * The exact command that replays one shrunk fuzz case: the environment it needs (`KEY=VALUE`),
 * the tool as it was invoked (`npx cua-contract`, `node bin/cua-contract.js`), then the flags.
 */
export function reproduceCommand(options: {
  seed: number;
  path: string;
  harness?: string;
  cmd?: string;
  cassettes?: readonly string[];
  /** How to start the tool; default `cua-contract`. */
  invocation?: string;
  /** Variables the run was given (`--env`), repeated as `--env` so the line stands alone. */
  env?: readonly (readonly [string, string])[];
  /** The run drew field faults and profiles (`--field-faults`). */
  fieldFaults?: boolean;
}): string {
  const parts = [`${options.invocation ?? "cua-contract"} fuzz`, `--seed ${options.seed}`, "--runs 1", `--path ${options.path}`];
  if (options.cmd !== undefined) parts.push(`--cmd ${quote(options.cmd)}`);
  else if (options.harness && options.harness !== "reference") parts.push(`--harness ${options.harness}`);
  for (const c of options.cassettes ?? []) parts.push(`--cassette ${quote(c)}`);
  for (const [k, v] of options.env ?? []) parts.push(`--env ${quote(`${k}=${v}`)}`);
  if (options.fieldFaults) parts.push("--field-faults");
  return parts.join(" ");
}

function quote(arg: string): string {
  return /^[\w@%+=:,./-]+$/.test(arg) ? arg : `'${arg.replaceAll("'", "'\\''")}'`;
}
